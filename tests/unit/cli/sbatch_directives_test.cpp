#include "cli/sbatch_directives.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/error.hpp>

namespace {

using stint::cli::extract_directives;
using Words = std::vector<std::string>;

Words words(const std::string& script) { return extract_directives(script, "job.sh"); }

}  // namespace

TEST_CASE("directives are read until the first command", "[directives]") {
  CHECK(words("#!/bin/bash\n#SBATCH -J a\n#SBATCH --time=5\necho hi\n#SBATCH -p late\n") ==
        Words{"-J", "a", "--time=5"});
  // Blank lines and comments before and between directives are skipped.
  CHECK(words("#!/bin/sh\n\n# setup\n   \n#SBATCH -n 2\n\t# indented comment\n#SBATCH -c 4\n") ==
        Words{"-n", "2", "-c", "4"});
  // An indented command also ends them.
  CHECK(words("#!/bin/sh\n  module load x\n#SBATCH -n 2\n").empty());
  CHECK(words("").empty());
  CHECK(words("#!/bin/sh\n#SBATCH -J last").size() == 2);  // no final newline
}

TEST_CASE("#SBATCH must begin the line, exactly", "[directives]") {
  CHECK(words("#!/bin/sh\n #SBATCH -J a\n").empty());
  CHECK(words("#!/bin/sh\n#sbatch -J a\n").empty());
  CHECK(words("#!/bin/sh\n# SBATCH -J a\n").empty());
  CHECK(words("#!/bin/sh\n#SBATCH--time=5\n") == Words{"--time=5"});
}

TEST_CASE("words: quotes, escapes and trailing comments", "[directives]") {
  CHECK(words("#SBATCH --job-name=\"two words\"\n") == Words{"--job-name=two words"});
  CHECK(words("#SBATCH -J 'single quoted' -p x\n") == Words{"-J", "single quoted", "-p", "x"});
  CHECK(words("#SBATCH --comment=\"a # not a comment\"\n") == Words{"--comment=a # not a comment"});
  CHECK(words("#SBATCH --time=1:00 # one minute\n") == Words{"--time=1:00"});
  CHECK(words("#SBATCH --time=1:00# glued comment\n") == Words{"--time=1:00"});
  CHECK(words("#SBATCH -J a\\\"b\n") == Words{"-J", "a\"b"});
  CHECK(words("#SBATCH -J a\\#b\n") == Words{"-J", "a#b"});
  CHECK(words("#SBATCH -J x\"y z\"w\n") == Words{"-J", "xy zw"});
  CHECK(words("#SBATCH\t-n\t3  \n") == Words{"-n", "3"});
  CHECK(words("#SBATCH\n").empty());
  // As in Slurm, an empty quoted word ends the line's words.
  CHECK(words("#SBATCH -J \"\" -p x\n") == Words{"-J"});
}

TEST_CASE("an unmatched quote is an error naming the line", "[directives]") {
  try {
    words("#!/bin/sh\n#SBATCH -J 'open\n");
    FAIL("no error");
  } catch (const stint::Error& e) {
    CHECK(e.code() == stint::Errc::batch_script_invalid);
    CHECK(std::string(e.what()) == "job.sh: line 2: Unmatched `'` in [#SBATCH -J 'open]");
  }
}

TEST_CASE("a hetjob separator ends the first component's directives", "[directives]") {
  CHECK(words("#!/bin/sh\n#SBATCH -n 1\n#SBATCH hetjob\n#SBATCH -n 2\n") == Words{"-n", "1"});
}
