#include "cli/option_dump.hpp"

#include <cstdlib>

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;
namespace dump = stint::tools::option_dump;

TEST_CASE("sinfo -v: the default format and the flags its fields set", "[option_dump]") {
  ::unsetenv("SINFO_FORMAT");
  dump::SinfoOptions o;
  o.verbose = 1;
  const std::string out = dump::sinfo(o);
  CHECK_THAT(out, Contains("format      = partition:9 ,available:.5 ,time:.10 ,nodes:.6 "
                           ",statecompact:.6 ,nodelist:0\n"));
  CHECK_THAT(out, Contains("iterate     = 0\n"));
  CHECK_THAT(out, Contains("verbose     = 1\n"));
  CHECK_THAT(out, Contains("nodes       = n/a\n"));
  CHECK_THAT(out, Contains("part_field  = true\n"));
  CHECK_THAT(out, Contains("avail_flag      = true\n"));
  CHECK_THAT(out, Contains("max_time_flag   = true\n"));
  CHECK_THAT(out, Contains("state_flag      = true\n"));
  CHECK_THAT(out, Contains("memory_flag     = false\n"));
  CHECK_THAT(out, Contains("states      = (null)\n"));
  CHECK(out.rfind("-----------------------------\n\n") == out.size() - 31);
}

TEST_CASE("sinfo -v: -o letters, -R's states, filtering", "[option_dump]") {
  dump::SinfoOptions o;
  o.format = "%P %.5a %m %#N";
  o.partition = "debug";
  o.iterate = 5;
  o.verbose = 2;
  std::string out = dump::sinfo(o);
  CHECK_THAT(out, Contains("format      = %P %.5a %m %#N\n"));
  CHECK_THAT(out, Contains("filtering   = true\n"));
  CHECK_THAT(out, Contains("partition   = debug\n"));
  CHECK_THAT(out, Contains("iterate     = 5\n"));
  CHECK_THAT(out, Contains("memory_flag     = true\n"));
  CHECK_THAT(out, Contains("partition_flag  = true\n"));
  CHECK_THAT(out, Contains("state_flag      = false\n"));
  CHECK_THAT(out, Contains("part_field  = false\n"));

  dump::SinfoOptions r;
  r.list_reasons = true;
  out = dump::sinfo(r);
  CHECK_THAT(out, Contains("states      = down,fail,drain\n"));
  CHECK_THAT(out, Contains("reason_flag     = true\n"));
  CHECK_THAT(out, Contains("reason_user_flag = true\n"));
}

TEST_CASE("squeue -v: every option, unset ones as (null)", "[option_dump]") {
  dump::SqueueOptions o;
  o.verbose = 1;
  o.jobs = "12,13";
  o.job_flag = true;
  const std::string out = dump::squeue(o);
  CHECK_THAT(out, Contains("format      = (null)\n"));
  CHECK_THAT(out, Contains("job_flag    = 1\n"));
  CHECK_THAT(out, Contains("jobs        = 12,13\n"));
  CHECK_THAT(out, Contains("nodes       = \n"));
  CHECK_THAT(out, Contains("sibling      = false\n"));
  CHECK_THAT(out, Contains("verbose     = 1\n"));
  CHECK(out.substr(out.size() - 3) == "\n\n\n");
}
