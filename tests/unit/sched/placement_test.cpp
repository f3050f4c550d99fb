// Where a job may run: -w, -x, -C/--prefer feature expressions, --mincpus,
// --tmp and the node shape, whole-node jobs, licenses; the submit-time
// refusals and the pass's choices on a fixed clock.

#include "sched/placement.hpp"

#include <catch2/catch.hpp>

#include "sched/sched.hpp"

using namespace stint;

namespace {

constexpr Seconds k_now = 1'800'000'000;

// Four nodes: n-1, n-2 "fast,ib" (8 CPUs, 100G tmp); n-3, n-4 "slow" (4 CPUs).
Config cluster() {
  Config c;
  NodePool fast;
  fast.id = "n";
  fast.count = 2;
  fast.cpus = 8;
  fast.memory_mb = 8192;
  fast.features = {"fast", "ib"};
  fast.tmp_disk_mb = 100 * 1024;
  fast.node_names = {"n-1", "n-2"};
  NodePool slow = fast;
  slow.id = "s";
  slow.cpus = 4;
  slow.features = {"slow"};
  slow.tmp_disk_mb = 0;
  slow.node_names = {"n-3", "n-4"};
  c.node_pools = {fast, slow};
  PartitionConfig p;
  p.id = "debug";
  p.node_pool_ids = {"n", "s"};
  c.partitions.push_back(p);
  c.slurm_conf["Licenses"] = "matlab:2,ansys";
  return c;
}

JobSpec spec(std::uint32_t nodes = 1) {
  JobSpec s;
  s.nodes = nodes;
  s.mem_per_node_mb = 100;
  return s;
}

std::vector<bool> first_mask(const JobSpec& s, const Config& c) {
  return sched::choose_nodes(s, c.partition_nodes(c.partitions[0])).masks.at(0);
}

Errc refusal(const JobSpec& s, const Config& c) {
  try {
    sched::checked_request(s, c.partitions[0], c);
  } catch (const Error& e) {
    return e.code();
  }
  return Errc::ok;
}

Job job(JobId id, const Config& c, JobSpec s) {
  Job j;
  j.id = id;
  j.spec = std::move(s);
  j.partition = "debug";
  j.user_name = "alice";
  j.time_limit = 3600;
  j.priority = 1000 - static_cast<std::uint32_t>(id);
  j.req = sched::checked_request(j.spec, c.partitions[0], c);
  return j;
}

std::vector<std::string> started_on(const sched::Decision& d, JobId id) {
  std::vector<std::string> nodes;
  for (const auto& [jid, alloc] : d.starts) {
    if (jid != id) continue;
    for (const auto& a : alloc) nodes.push_back(a.node);
  }
  return nodes;
}

}  // namespace

TEST_CASE("a job without placement options narrows nothing") {
  CHECK_FALSE(sched::narrows_nodes(spec()));
  JobSpec s = spec();
  s.options_to_set().exclude = "n-1";
  CHECK(sched::narrows_nodes(s));
}

TEST_CASE("constraint: features, &, |, parentheses and counts match per node") {
  const Config c = cluster();
  JobSpec s = spec();
  s.options_to_set().constraint = "fast";
  CHECK(first_mask(s, c) == std::vector<bool>{true, true, false, false});
  s.options_to_set().constraint = "fast&ib";
  CHECK(first_mask(s, c) == std::vector<bool>{true, true, false, false});
  s.options_to_set().constraint = "fast&slow";
  CHECK(first_mask(s, c) == std::vector<bool>{false, false, false, false});
  s.options_to_set().constraint = "fast|slow";
  CHECK(first_mask(s, c) == std::vector<bool>{true, true, true, true});
  s.options_to_set().constraint = "(ib|slow)&fast";
  CHECK(first_mask(s, c) == std::vector<bool>{true, true, false, false});
  s.options_to_set().constraint = "slow*2";
  CHECK(first_mask(s, c) == std::vector<bool>{false, false, true, true});
}

TEST_CASE("constraint [a|b]: one mask per choice") {
  const Config c = cluster();
  JobSpec s = spec(2);
  s.options_to_set().constraint = "[fast|slow]";
  const auto choice = sched::choose_nodes(s, c.partition_nodes(c.partitions[0]));
  REQUIRE(choice.masks.size() == 2);
  CHECK(choice.masks[0] == std::vector<bool>{true, true, false, false});
  CHECK(choice.masks[1] == std::vector<bool>{false, false, true, true});
}

TEST_CASE("malformed and unknown features are refused as Slurm refuses them") {
  const Config c = cluster();
  for (const char* bad : {"fast&", "(fast", "fast)", "[fast|[slow]]", "fast*", "|", "a b"}) {
    JobSpec s = spec();
    s.options_to_set().constraint = bad;
    INFO(bad);
    CHECK(refusal(s, c) == Errc::invalid_feature);
  }
  JobSpec s = spec();
  s.options_to_set().constraint = "gpu";
  CHECK(refusal(s, c) == Errc::invalid_feature);
  s.options_to_set().constraint = "";
  s.options_to_set().prefer = "nosuch";
  CHECK(refusal(s, c) == Errc::invalid_feature);
}

TEST_CASE("nodelist and exclude: unknown names, nodes outside the partition, nothing left") {
  Config c = cluster();
  JobSpec s = spec();
  s.options_to_set().nodelist = "nosuch";
  CHECK(refusal(s, c) == Errc::invalid_node_name);
  s.options_to_set().nodelist = "n-[";
  CHECK(refusal(s, c) == Errc::invalid_node_name);
  s.options_to_set().nodelist = "";
  s.options_to_set().exclude = "n-[1-4]";
  CHECK(refusal(s, c) == Errc::node_config_unavailable);
  s.options_to_set().exclude = "n-[1-3]";
  CHECK(refusal(s, c) == Errc::ok);
  s.options_to_set().exclude = "";
  s.options_to_set().nodelist = "n-3";
  s.options_to_set().constraint = "fast";
  CHECK(refusal(s, c) == Errc::node_config_unavailable);

  PartitionConfig only_fast;
  only_fast.id = "fast";
  only_fast.node_pool_ids = {"n"};
  c.partitions.push_back(only_fast);
  JobSpec w = spec();
  w.options_to_set().nodelist = "n-3";
  CHECK_THROWS_MATCHES(sched::checked_request(w, c.partitions[1], c), Error,
                       Catch::Predicate<Error>([](const Error& e) {
                         return e.code() == Errc::node_config_unavailable;
                       }));
}

TEST_CASE("mincpus, tmp and the node shape leave the nodes that have them") {
  const Config c = cluster();
  JobSpec s = spec();
  s.options_to_set().mincpus = 6;
  CHECK(first_mask(s, c) == std::vector<bool>{true, true, false, false});
  CHECK(sched::checked_request(s, c.partitions[0], c).cpus_per_node == 6);
  s = spec();
  s.options_to_set().tmp_mb = 1024;
  CHECK(first_mask(s, c) == std::vector<bool>{true, true, false, false});
  s = spec();
  s.options_to_set().sockets_per_node = 2;
  CHECK(refusal(s, c) == Errc::node_config_unavailable);
  s = spec();
  s.options_to_set().threads_per_core = 1;
  s.options_to_set().cores_per_socket = 5;
  CHECK(first_mask(s, c) == std::vector<bool>{true, true, false, false});
  s = spec();
  s.options_to_set().mincpus = 9;
  CHECK(refusal(s, c) == Errc::node_config_unavailable);
}

TEST_CASE("licenses parse as Slurm writes them, and unknown ones are refused") {
  CHECK(sched::parse_licenses("matlab:2,ansys") ==
        std::map<std::string, std::uint32_t>{{"ansys", 1}, {"matlab", 2}});
  CHECK(sched::parse_licenses("a*3").at("a") == 3);
  CHECK(sched::parse_licenses("").empty());
  for (const char* bad : {"a:", "a:x", ":2", "a|b", "a:1:2", "a b"}) {
    INFO(bad);
    CHECK_THROWS_AS(sched::parse_licenses(bad), Error);
  }
  const Config c = cluster();
  JobSpec s = spec();
  s.options_to_set().licenses = "matlab:3";
  CHECK(refusal(s, c) == Errc::invalid_license);
  s.options_to_set().licenses = "nosuch";
  CHECK(refusal(s, c) == Errc::invalid_license);
  s.options_to_set().licenses = "matlab:2,ansys";
  CHECK(refusal(s, c) == Errc::ok);
}

TEST_CASE("the pass: nodelist, exclude and constraint decide the nodes") {
  const Config c = cluster();
  JobSpec w = spec();
  w.options_to_set().nodelist = "n-4";
  JobSpec x = spec();
  x.options_to_set().exclude = "n-[1-2]";
  JobSpec f = spec();
  f.options_to_set().constraint = "fast";
  const Job a = job(1, c, w), b = job(2, c, x), d = job(3, c, f);
  sched::Cluster cl(c.nodes());
  const auto dec = sched::schedule({&a, &b, &d}, cl, c, k_now);
  CHECK(started_on(dec, 1) == std::vector<std::string>{"n-4"});
  CHECK(started_on(dec, 2) == std::vector<std::string>{"n-3"});
  CHECK(started_on(dec, 3) == std::vector<std::string>{"n-1"});
}

TEST_CASE("the pass: a nodelist names some of the nodes, the rest come from the others") {
  const Config c = cluster();
  JobSpec s = spec(2);
  s.options_to_set().nodelist = "n-4";
  const Job a = job(1, c, s);
  sched::Cluster cl(c.nodes());
  const auto dec = sched::schedule({&a}, cl, c, k_now);
  CHECK(started_on(dec, 1) == std::vector<std::string>{"n-1", "n-4"});
}

TEST_CASE("the pass: contiguous takes adjacent nodes") {
  const Config c = cluster();
  JobSpec busy = spec();
  busy.options_to_set().nodelist = "n-2";
  busy.cpus_per_task = 8;
  const Job running = [&] {
    Job j = job(1, c, busy);
    j.state = JobState::running;
    j.start_time = k_now - 10;
    NodeAlloc a;
    a.node = "n-2";
    a.cpus = 8;
    a.cpu_ids = {0, 1, 2, 3, 4, 5, 6, 7};
    a.mem_mb = 100;
    j.alloc = {a};
    return j;
  }();
  JobSpec s = spec(2);
  s.options_to_set().contiguous = true;
  const Job a = job(2, c, s);
  sched::Cluster cl(c.nodes());
  cl.take_jobs({&running});
  const auto dec = sched::schedule({&a}, cl, c, k_now);
  CHECK(started_on(dec, 2) == std::vector<std::string>{"n-3", "n-4"});
}

TEST_CASE("the pass: a whole-node job waits for an empty node and takes all of it") {
  const Config c = cluster();
  JobSpec small = spec();
  small.options_to_set().nodelist = "n-1";
  JobSpec whole = spec();
  whole.options_to_set().exclusive = Exclusive::node;
  whole.options_to_set().constraint = "fast";
  whole.mem_per_node_mb.reset();
  const Job a = job(1, c, small), b = job(2, c, whole), d = job(3, c, whole);
  CHECK(b.req.whole_nodes);
  CHECK(b.req.whole_node_mem);
  sched::Cluster cl(c.nodes());
  const auto dec = sched::schedule({&a, &b, &d}, cl, c, k_now);
  CHECK(started_on(dec, 1) == std::vector<std::string>{"n-1"});
  REQUIRE(started_on(dec, 2) == std::vector<std::string>{"n-2"});
  for (const auto& [id, alloc] : dec.starts) {
    if (id == 2) CHECK(alloc.front().cpu_ids.size() == 8);
  }
  CHECK(started_on(dec, 3).empty());
  CHECK(dec.reasons.at(3) == Reason::resources);
}

TEST_CASE("the pass: a job whose licenses are in use waits with reason Licenses") {
  const Config c = cluster();
  JobSpec s = spec();
  s.options_to_set().licenses = "matlab:2";
  const Job a = job(1, c, s), b = job(2, c, s), d = job(3, c, spec());
  sched::Cluster cl(c.nodes());
  const auto dec = sched::schedule({&a, &b, &d}, cl, c, k_now);
  CHECK_FALSE(started_on(dec, 1).empty());
  CHECK(dec.reasons.at(2) == Reason::licenses);
  CHECK_FALSE(started_on(dec, 3).empty());
}

TEST_CASE("the pass: prefer takes the preferred nodes when they are free") {
  const Config c = cluster();
  JobSpec s = spec();
  s.options_to_set().prefer = "slow";
  const Job a = job(1, c, s);
  sched::Cluster cl(c.nodes());
  const auto dec = sched::schedule({&a}, cl, c, k_now);
  CHECK(started_on(dec, 1) == std::vector<std::string>{"n-3"});
}

TEST_CASE("OverSubscribe=EXCLUSIVE gives every job of the partition whole nodes") {
  Config c = cluster();
  c.partitions[0].over_subscribe = "EXCLUSIVE";
  CHECK(sched::checked_request(spec(), c.partitions[0], c).whole_nodes);
}

TEST_CASE("the node shape: sockets and threads per core declared per pool") {
  Config c = cluster();
  c.node_pools[0].sockets = 2;  // n-1, n-2: 2 sockets x 2 cores x 2 threads
  c.node_pools[0].threads_per_core = 2;
  JobSpec s = spec();
  s.options_to_set().sockets_per_node = 2;
  s.options_to_set().threads_per_core = 2;
  CHECK(first_mask(s, c) == std::vector<bool>{true, true, false, false});
  s.options_to_set().cores_per_socket = 3;
  CHECK(refusal(s, c) == Errc::node_config_unavailable);
  CHECK(c.nodes().front().cores_per_socket() == 2);

  // One task per core on two-thread cores: each task's CPU comes with its sibling.
  PartitionConfig fast;
  fast.id = "fast";
  fast.node_pool_ids = {"n"};
  c.partitions.push_back(fast);
  JobSpec h = spec();
  h.ntasks = 2;
  h.options_to_set().hint = "nomultithread";
  CHECK(sched::checked_request(h, c.partitions[1], c).cpus_per_node == 4);
  h.options_to_set().hint.clear();
  CHECK(sched::checked_request(h, c.partitions[1], c).cpus_per_node == 2);
}

TEST_CASE("EnforcePartLimits refuses more CPUs, then more nodes, than the partition has",
          "[placement]") {
  Config c = cluster();  // 24 CPUs on 4 nodes
  JobSpec many;
  many.ntasks = 25;
  JobSpec wide;
  wide.nodes = 5;
  // NO (the default): what can never run is refused by never_fits, with
  // Slurm's words alone ("Requested node configuration is not available").
  try {
    (void)sched::checked_request(wide, c.partitions[0], c);
    FAIL("five nodes of four were accepted");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::node_config_unavailable);
    CHECK(std::string(e.what()).empty());
  }
  c.slurm_conf["EnforcePartLimits"] = "ALL";
  CHECK_THROWS_MATCHES(sched::checked_request(many, c.partitions[0], c), Error,
                       Catch::Matchers::Message("More processors requested than permitted"));
  CHECK_THROWS_MATCHES(sched::checked_request(wide, c.partitions[0], c), Error,
                       Catch::Matchers::Message("Node count specification invalid"));
  JobSpec fits;
  fits.ntasks = 4;
  CHECK_NOTHROW(sched::checked_request(fits, c.partitions[0], c));
}
