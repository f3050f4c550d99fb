// sprio and sshare output against transcripts/06-sprio-sshare.txt (Slurm
// 22.05): the same records must print the same text.

#include <catch2/catch.hpp>

#include <stint/error.hpp>
#include <stint/format.hpp>

using namespace stint;
using namespace stint::format;

namespace {

// Weights Age=1000 Fairshare=10000 JobSize=1000 Partition=1000 QOS=1000; jobs
// 22, 28 and 29 (nice 100) of root in partition cpu (job factor 1 of 10).
SprioWeights weights() {
  SprioWeights w;
  w.age = 1000;
  w.fairshare = 10000;
  w.job_size = 1000;
  w.partition = 1000;
  w.qos = 1000;
  return w;
}

SprioRecord record(JobId id, std::int64_t nice = 0) {
  SprioRecord r;
  r.id = id;
  r.partition = "cpu";
  r.user = "root";
  r.account = "root";
  r.qos = "normal";
  r.fairshare = 1.0;
  r.job_size = 0.75;
  r.partition_factor = 0.1;
  r.nice = nice;
  r.priority = 10000 + 750 + 100 - static_cast<double>(nice);
  return r;
}

std::vector<SprioRecord> records() { return {record(29, 100), record(22), record(28)}; }

std::string sprio(SprioOptions o) { return render_sprio(records(), o, weights(), Context{}); }

}  // namespace

TEST_CASE("sprio: default, -l, -w, -n, -o as Slurm prints them", "[sprio]") {
  CHECK(sprio({}) ==
        "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE  "
        "PARTITION        QOS\n"
        "             22 cpu            10850          0          0      10000        750        "
        "100          0\n"
        "             28 cpu            10850          0          0      10000        750        "
        "100          0\n"
        "             29 cpu            10750          0          0      10000        750        "
        "100          0\n");

  SprioOptions l;
  l.long_list = true;
  CHECK(
      sprio(l) ==
      "          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC  FAIRSHARE  "
      "  JOBSIZE  PARTITION        QOS        NICE                 TRES\n"
      "             22 cpu           root      10850          0          0          0      10000 "
      "       750        100          0           0                     \n"
      "             28 cpu           root      10850          0          0          0      10000 "
      "       750        100          0           0                     \n"
      "             29 cpu           root      10750          0          0          0      10000 "
      "       750        100          0         100                     \n");

  SprioOptions w;
  w.weights = true;
  CHECK(sprio(w) ==
        "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE  "
        "PARTITION        QOS\n"
        "        Weights                               1       1000      10000       1000       "
        "1000       1000\n");

  SprioOptions n;
  n.normalized = true;
  CHECK(
      sprio(n) ==
      "          JOBID PARTITION PRIORITY   AGE        FAIRSHARE  JOBSIZE    PARTITION  QOS       "
      "\n"
      "             22 cpu       0.00000252 0.0000000  1.0000000  0.7500000  0.1000000  0.0000000 "
      "\n"
      "             28 cpu       0.00000252 0.0000000  1.0000000  0.7500000  0.1000000  0.0000000 "
      "\n"
      "             29 cpu       0.00000250 0.0000000  1.0000000  0.7500000  0.1000000  0.0000000 "
      "\n");

  SprioOptions o;
  o.format = "%.15i %.8u %.10Y %.10A %.10F %.10J %.10P %.10Q %.20T";
  CHECK(
      sprio(o) ==
      "          JOBID     USER   PRIORITY        AGE  FAIRSHARE    JOBSIZE  PARTITION        QOS "
      "                TRES\n"
      "             22     root      10850          0      10000        750        100          0 "
      "                    \n"
      "             28     root      10850          0      10000        750        100          0 "
      "                    \n"
      "             29     root      10750          0      10000        750        100          0 "
      "                    \n");
}

TEST_CASE("sprio: -u adds USER, -h drops the header, -S sorts", "[sprio]") {
  SprioOptions o;
  o.show_user = true;
  o.no_header = true;
  o.sort = "-y,i";
  o.format = "";
  std::string out = sprio(o);
  CHECK(out.find("USER") == std::string::npos);
  CHECK(out.substr(0, 32) == "             22 cpu           ro");
  CHECK(out.substr(out.rfind('\n', out.size() - 2) + 1, 15) == "             29");
  o.sort = "x";
  CHECK_THROWS_WITH(sprio(o), "Invalid sort specification: x");
  SprioOptions bad;
  bad.format = "%.10Z";
  CHECK_THROWS_WITH(sprio(bad), "Invalid job format specification: Z");
}

TEST_CASE("sprio: TRES columns and weights", "[sprio]") {
  SprioWeights w;
  w.tres = {{"cpu", 1000}, {"mem", 2000}};
  w.tres_text = "CPU=1000,Mem=2000";
  SprioRecord r = record(5);
  r.tres = {{"cpu", 0.25}, {"mem", 0.125}};
  SprioOptions o;
  o.format = "%.5i %.20T %20t";
  CHECK(render_sprio({r}, o, w, Context{}) ==
        "JOBID                 TRES TRES                \n"
        "    5      cpu=250,mem=250 cpu=0.25,mem=0.12   \n");
  o.weights = true;
  CHECK(render_sprio({r}, o, w, Context{}) ==
        "JOBID                 TRES TRES                \n"
        "Weigh    CPU=1000,Mem=2000                     \n");
}

namespace {

// The transcript's two associations: root, and the root user under it, with
// 23 CPU-seconds of usage.
std::vector<SshareRecord> shares() {
  SshareRecord root;
  root.account = "root";
  root.is_root = true;
  root.raw_usage = 23;
  root.effective_usage = 1.0;
  root.tres_run_mins = {{"cpu", 0},     {"mem", 0},     {"energy", 0}, {"node", 0},
                        {"billing", 0}, {"fs/disk", 0}, {"vmem", 0},   {"pages", 0}};
  SshareRecord user = root;
  user.is_root = false;
  user.user = "root";
  user.depth = 1;
  user.raw_shares = 1;
  user.norm_shares = 1.0;
  user.norm_usage = 0.0;
  user.effective_usage = 0.0;
  user.fairshare = 1.0;
  user.level_fs = std::numeric_limits<double>::infinity();
  return {root, user};
}

}  // namespace

TEST_CASE("sshare: default, -l, -P as Slurm prints them", "[sshare]") {
  CHECK(render_sshare(shares(), {}) ==
        "Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  "
        "FairShare \n"
        "-------------------- ---------- ---------- ----------- ----------- ------------- "
        "---------- \n"
        "root                                          0.000000          23      1.000000         "
        "   \n"
        " root                      root          1    1.000000          23      0.000000   "
        "1.000000 \n");
  SshareOptions l;
  l.long_list = true;
  CHECK(render_sshare(shares(), l) ==
        "Account                    User  RawShares  NormShares    RawUsage   NormUsage  "
        "EffectvUsage  FairShare    LevelFS                    GrpTRESMins                    "
        "TRESRunMins \n"
        "-------------------- ---------- ---------- ----------- ----------- ----------- "
        "------------- ---------- ---------- ------------------------------ "
        "------------------------------ \n"
        "root                                          0.000000          23                  "
        "1.000000                                                      "
        "cpu=0,mem=0,energy=0,node=0,b+ \n"
        " root                      root          1    1.000000          23    0.000000      "
        "0.000000   1.000000        inf                                "
        "cpu=0,mem=0,energy=0,node=0,b+ \n");
  SshareOptions p;
  p.parsable = Parsable::no_trailing;
  CHECK(render_sshare(shares(), p) ==
        "Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare\n"
        "root|||0.000000|23|1.000000|\n"
        " root|root|1|1.000000|23|0.000000|1.000000\n");
}

TEST_CASE("sshare: -o by name prefix with widths, -U, -n, classic columns", "[sshare]") {
  SshareOptions o;
  o.format = "acc,user%6,rawu,fairs";
  o.no_header = true;
  o.users_only = true;
  CHECK(render_sshare(shares(), o) == " root                  root          23   1.000000 \n");
  o.format = "Bogus";
  CHECK_THROWS_WITH(render_sshare(shares(), o), "Invalid field requested: \"Bogus\"");
  SshareOptions classic;
  classic.fair_tree = false;
  classic.long_list = true;
  classic.format = "";
  std::string header = render_sshare({}, classic);
  CHECK(header.find("LevelFS") == std::string::npos);
  CHECK(header.find("NormUsage") != std::string::npos);
  // A wide fraction takes the exponent form, as print_fields_double does.
  auto rows = shares();
  rows[1].level_fs = 123456.0;
  SshareOptions lf;
  lf.format = "LevelFS";
  lf.no_header = true;
  CHECK(render_sshare(rows, lf) == "           \n1.2346e+05 \n");
  CHECK(sshare_helpformat().substr(0, 36) == "Account           Cluster           ");
}
