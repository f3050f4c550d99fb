// sacctmgr: the command language, and the whole path from a command line
// through stintd's handlers to what is printed, replayed against Slurm's own
// transcript (shared/slurm-reference/transcripts/09-sacctmgr.txt, Slurm
// 22.05 on a cluster named "oracle"). Where stint differs on purpose the
// expected text says so.

#include "cli/sacctmgr.hpp"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/store.hpp>

#include "daemon/controller.hpp"
#include "util/clock.hpp"
#include "util/proc.hpp"

using namespace stint;
using cli::SacctmgrEntity;
using cli::SacctmgrVerb;

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/stint-sacctmgr-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

struct Step {
  std::vector<std::string> words;
  bool commit;
  bool nothing;  ///< " Nothing new added." and friends: exit 1
  bool error;    ///< a refusal, printed as it is
  std::string expected;
};

struct Show {
  std::vector<std::string> words;
  std::string opts;  ///< n: -n, P: -P
  std::string expected;
};

// Generated from the transcript: what Slurm printed for each command, without
// the commit question (the tool asks it, not the summary).
const std::vector<Step> k_adds = {
    {{"add", "account", "lab", "Description=test lab", "Organization=uni"},
     true,
     false,
     false,
     R"( Adding Account(s)
  lab
 Settings
  Description     = test lab
  Organization    = uni
 Associations
  A = lab        C = oracle    
 Settings
  Parent        = root
)"},
    {{"add", "account", "tmp"},
     false,
     false,
     false,
     R"( Adding Account(s)
  tmp
 Settings
  Description     = Account Name
  Organization    = Parent/Account Name
 Associations
  A = tmp        C = oracle    
)"},
    {{"add", "account", "physics", "Parent=lab", "Description=phys"},
     true,
     false,
     false,
     R"( Adding Account(s)
  physics
 Settings
  Description     = phys
  Organization    = Parent/Account Name
 Associations
  A = physics    C = oracle    
 Settings
  Parent        = lab
)"},
    {{"add", "account", "lab"},
     true,
     true,
     false,
     R"( Nothing new added.
)"},
    {{"add", "user", "alice", "Account=lab", "Partition=cpu"},
     true,
     false,
     false,
     R"( Adding User(s)
  alice
 Associations =
  U = alice     A = lab        C = oracle     P = cpu       
 Non Default Settings
)"},
    {{"add", "user", "bob", "Account=lab"},
     true,
     false,
     false,
     R"( Adding User(s)
  bob
 Associations =
  U = bob       A = lab        C = oracle    
 Non Default Settings
)"},
    {{"add", "user", "alice", "Account=lab", "Partition=high"},
     true,
     false,
     false,
     R"( Associations =
  U = alice     A = lab        C = oracle     P = high      
 Non Default Settings
)"},
    {{"add", "user", "alice", "Account=physics", "DefaultAccount=lab"},
     true,
     false,
     false,
     R"( Associations =
  U = alice     A = physics    C = oracle    
  U = alice     A = lab        C = oracle    
 Non Default Settings
)"},
};
const std::vector<Show> k_shows = {
    {{"show", "assoc"},
     "",
     R"(   Cluster    Account       User  Partition     Share   Priority GrpJobs       GrpTRES GrpSubmit     GrpWall   GrpTRESMins MaxJobs       MaxTRES MaxTRESPerNode MaxSubmit     MaxWall   MaxTRESMins                  QOS   Def QOS GrpTRESRunMin 
---------- ---------- ---------- ---------- --------- ---------- ------- ------------- --------- ----------- ------------- ------- ------------- -------------- --------- ----------- ------------- -------------------- --------- ------------- 
    oracle       root                               1                                                                                                                                                             normal                         
    oracle       root       root                    1                                                                                                                                                             normal                         
    oracle        lab                               1                                                                                                                                                             normal                         
    oracle        lab      alice                    1                                                                                                                                                             normal                         
    oracle        lab      alice       high         1                                                                                                                                                             normal                         
    oracle        lab      alice        cpu         1                                                                                                                                                             normal                         
    oracle        lab        bob                    1                                                                                                                                                             normal                         
    oracle    physics                               1                                                                                                                                                             normal                         
    oracle    physics      alice                    1                                                                                                                                                             normal                         
)"},
    {{"show", "assoc",
      "format=cluster,account,user,partition,share,maxjobs,grptres,qos,defaultqos"},
     "",
     R"(   Cluster    Account       User  Partition     Share MaxJobs       GrpTRES                  QOS   Def QOS 
---------- ---------- ---------- ---------- --------- ------- ------------- -------------------- --------- 
    oracle       root                               1                                     normal           
    oracle       root       root                    1                                     normal           
    oracle        lab                               1                                     normal           
    oracle        lab      alice                    1                                     normal           
    oracle        lab      alice       high         1                                     normal           
    oracle        lab      alice        cpu         1                                     normal           
    oracle        lab        bob                    1                                     normal           
    oracle    physics                               1                                     normal           
    oracle    physics      alice                    1                                     normal           
)"},
    {{"show", "assoc", "tree", "format=account,user,partition,share"},
     "",
     R"(Account                    User  Partition     Share 
-------------------- ---------- ---------- --------- 
root                                               1 
 root                      root                    1 
 lab                                               1 
  lab                     alice                    1 
  lab                     alice       high         1 
  lab                     alice        cpu         1 
  lab                       bob                    1 
  physics                                          1 
   physics                alice                    1 
)"},
    {{"show", "assoc", "where", "user=alice", "format=account,user,partition"},
     "P",
     R"(Account|User|Partition
lab|alice|
lab|alice|high
lab|alice|cpu
physics|alice|
)"},
    {{"list", "users"},
     "",
     R"(      User   Def Acct     Admin 
---------- ---------- --------- 
     alice        lab      None 
       bob        lab      None 
      root       root Administ+ 
)"},
    {{"list", "users", "withassoc"},
     "",
     R"(      User   Def Acct     Admin    Cluster    Account  Partition     Share   Priority MaxJobs MaxNodes  MaxCPUs MaxSubmit     MaxWall  MaxCPUMins                  QOS   Def QOS 
---------- ---------- --------- ---------- ---------- ---------- --------- ---------- ------- -------- -------- --------- ----------- ----------- -------------------- --------- 
     alice        lab      None     oracle        lab                    1                                                                                      normal           
     alice        lab      None     oracle        lab       high         1                                                                                      normal           
     alice        lab      None     oracle        lab        cpu         1                                                                                      normal           
     alice        lab      None     oracle    physics                    1                                                                                      normal           
       bob        lab      None     oracle        lab                    1                                                                                      normal           
      root       root Administ+     oracle       root                    1                                                                                      normal           
)"},
    {{"show", "user", "alice", "withassoc", "format=user,defaultaccount,account,partition,maxjobs"},
     "",
     R"(      User   Def Acct    Account  Partition MaxJobs 
---------- ---------- ---------- ---------- ------- 
     alice        lab        lab                    
     alice        lab        lab       high         
     alice        lab        lab        cpu         
     alice        lab    physics                    
)"},
    {{"list", "accounts"},
     "",
     R"(   Account                Descr                  Org 
---------- -------------------- -------------------- 
       lab             test lab                  uni 
   physics                 phys                  lab 
      root default root account                 root 
)"},
    {{"list", "accounts", "withassoc", "format=account,user,partition"},
     "",
     R"(   Account       User  Partition 
---------- ---------- ---------- 
       lab                       
       lab      alice            
       lab      alice       high 
       lab      alice        cpu 
       lab        bob            
   physics                       
   physics      alice            
      root                       
      root       root            
)"},
    {{"list", "cluster"},
     "nP",
     R"(oracle|127.0.0.1|0|0|1||||||||normal|
)"},
    {{"show", "cluster", "format=cluster,controlhost,controlport,rpc"},
     "",
     R"(   Cluster     ControlHost  ControlPort   RPC 
---------- --------------- ------------ ----- 
    oracle       127.0.0.1            0     0 
)"},
    {{"show", "qos"},
     "",
     R"(      Name   Priority  GraceTime    Preempt   PreemptExemptTime PreemptMode                                    Flags UsageThres UsageFactor       GrpTRES   GrpTRESMins GrpTRESRunMin GrpJobs GrpSubmit     GrpWall       MaxTRES MaxTRESPerNode   MaxTRESMins     MaxWall     MaxTRESPU MaxJobsPU MaxSubmitPU     MaxTRESPA MaxJobsPA MaxSubmitPA       MinTRES 
---------- ---------- ---------- ---------- ------------------- ----------- ---------------------------------------- ---------- ----------- ------------- ------------- ------------- ------- --------- ----------- ------------- -------------- ------------- ----------- ------------- --------- ----------- ------------- --------- ----------- ------------- 
    normal          0   00:00:00                                    cluster                                                        1.000000                                                                                                                                                                                                                      
)"},
    {{"show", "qos", "format=name,priority,preempt,preemptmode,maxjobsperuser,maxwall"},
     "",
     R"(      Name   Priority    Preempt PreemptMode MaxJobsPU     MaxWall 
---------- ---------- ---------- ----------- --------- ----------- 
    normal          0                cluster                       
)"},
    {{"show", "tres"},
     "",
     R"(    Type            Name     ID 
-------- --------------- ------ 
     cpu                      1 
     mem                      2 
  energy                      3 
    node                      4 
 billing                      5 
      fs            disk      6 
    vmem                      7 
   pages                      8 
)"},
};
const std::vector<Step> k_modifies = {
    {{"modify", "user", "alice", "set", "MaxJobs=1"},
     true,
     false,
     false,
     R"( Modified user associations...
  C = oracle     A = lab                  U = alice    
  C = oracle     A = lab                  U = alice     P = high
  C = oracle     A = lab                  U = alice     P = cpu
  C = oracle     A = physics              U = alice    
)"},
    {{"modify", "user", "where", "name=alice", "account=lab", "partition=cpu", "set",
      "GrpTRES=cpu=2", "MaxSubmitJobs=5"},
     true,
     false,
     false,
     R"( Modified user associations...
  C = oracle     A = lab                  U = alice     P = cpu
)"},
    {{"modify", "user", "alice", "set", "GrpTRES=cpu=-1"},
     true,
     false,
     false,
     R"( Modified user associations...
  C = oracle     A = lab                  U = alice    
  C = oracle     A = lab                  U = alice     P = high
  C = oracle     A = lab                  U = alice     P = cpu
  C = oracle     A = physics              U = alice    
)"},
    {{"modify", "user", "nosuchuser", "set", "MaxJobs=1"},
     true,
     true,
     false,
     R"( Nothing modified
)"},
    {{"modify", "user", "alice", "set", "Bogus=1"},
     true,
     false,
     true,
     R"( Unknown option: Bogus=1
 Use keyword 'where' to modify condition
)"},
    {{"modify", "account", "lab", "set", "Fairshare=50"},
     true,
     false,
     false,
     R"( Modified account associations...
  C = oracle     A = lab of root
)"},
};
const std::vector<Show> k_shows_after_modify = {
    {{"show", "assoc", "where", "user=alice",
      "format=account,user,partition,share,maxjobs,maxsubmit,grptres"},
     "",
     R"(   Account       User  Partition     Share MaxJobs MaxSubmit       GrpTRES 
---------- ---------- ---------- --------- ------- --------- ------------- 
       lab      alice                    1       1                         
       lab      alice       high         1       1                         
       lab      alice        cpu         1       1         5               
   physics      alice                    1       1                         
)"},
};
const std::vector<Step> k_qos_steps = {
    {{"add", "qos", "high", "Priority=100", "MaxJobsPerUser=1"},
     true,
     false,
     false,
     R"( Adding QOS(s)
  high
 Settings
  Description    = high
  MaxJobsPerUser = 1
  Priority                 = 100
)"},
    {{"modify", "user", "bob", "set", "qos+=high"},
     true,
     false,
     false,
     R"( Modified user associations...
  C = oracle     A = lab                  U = bob      
)"},
};
const std::vector<Show> k_shows_qos = {
    {{"show", "assoc", "where", "user=bob", "format=account,user,qos,defaultqos"},
     "",
     R"(   Account       User                  QOS   Def QOS 
---------- ---------- -------------------- --------- 
       lab        bob          high,normal           
)"},
    {{"show", "qos", "format=name,priority,maxjobsperuser"},
     "",
     R"(      Name   Priority MaxJobsPU 
---------- ---------- --------- 
    normal          0           
      high        100         1 
)"},
};
const std::vector<Step> k_deletes = {
    {{"delete", "user", "bob", "account=physics"},
     true,
     true,
     false,
     R"( Nothing deleted
)"},
    {{"delete", "user", "bob"},
     false,
     false,
     false,
     R"( Deleting users...
  bob
)"},
    {{"delete", "user", "nosuchuser"},
     true,
     true,
     false,
     R"( Nothing deleted
)"},
    {{"delete", "account", "nosuchacct"},
     true,
     true,
     false,
     R"( Nothing deleted
)"},
    {{"delete", "account", "lab"},
     true,
     false,
     true,
     R"( Error with request: You can not remove the default account of a user
  C = oracle          A = lab        U = alice    
  C = oracle          A = lab        U = bob      
 Please either remove the accounts listed above from list and resubmit,
 or change these users' default accounts to remove the account(s).
 Changes Discarded
)"},
    {{"add", "user", "dave", "Account=lab"},
     true,
     false,
     false,
     R"( Adding User(s)
  dave
 Associations =
  U = dave      A = lab        C = oracle    
 Non Default Settings
)"},
    {{"delete", "user", "dave"},
     true,
     false,
     false,
     R"( Deleting users...
  dave
)"},
};

/// A controller over a fresh state directory, cluster "oracle" with
/// partitions cpu and high, as in the transcript.
struct Cluster {
  TempDir dir;
  FixedClock clock{1000};
  std::unique_ptr<daemon::Controller> c;

  Cluster() {
    Config cfg;
    cfg.cluster_name = "oracle";
    PartitionConfig cpu;
    cpu.id = "cpu";
    PartitionConfig high;
    high.id = "high";
    cfg.partitions = {cpu, high};
    c = std::make_unique<daemon::Controller>(
        Paths{dir.path}, cfg, Store::open(dir.path + "/stint.db", Store::Mode::read_write), clock);
  }

  nlohmann::json call(const std::vector<std::string>& words, bool commit, std::uint32_t uid = 0) {
    const auto cmd = cli::parse_sacctmgr(words);
    return c->handle(cli::sacctmgr_request(cmd, commit), daemon::Caller{uid, uid, 1});
  }

  void run(const Step& s) {
    INFO("sacctmgr " << Catch::Detail::stringify(s.words));
    const auto cmd = cli::parse_sacctmgr(s.words);
    nlohmann::json reply;
    try {
      reply = c->handle(cli::sacctmgr_request(cmd, s.commit), daemon::Caller{0, 0, 1});
    } catch (const Error& e) {
      REQUIRE(s.error);
      CHECK(std::string(e.what()) + "\n" == s.expected);
      return;
    }
    REQUIRE_FALSE(s.error);
    bool nothing = false;
    CHECK(cli::sacctmgr_summary(cmd, reply, "oracle", nothing) == s.expected);
    CHECK(nothing == s.nothing);
  }

  // Listings read the database as the tool does, not the daemon's copy.
  std::string show(const std::vector<std::string>& words, const std::string& opts = "") {
    cli::SacctmgrTable t;
    t.no_header = opts.find('n') != std::string::npos;
    t.parsable2 = opts.find('P') != std::string::npos;
    t.parsable = opts.find('p') != std::string::npos;
    const auto store = Store::open(dir.path + "/stint.db", Store::Mode::read_only);
    return cli::sacctmgr_show(cli::parse_sacctmgr(words), store->accounting(), "oracle", t);
  }
};

}  // namespace

TEST_CASE("the seed's sacctmgr add User form", "[sacctmgr]") {
  const auto cmd = cli::parse_sacctmgr({"add", "User", "Accounts=lab", "Partition=a4", "alice"});
  CHECK(cmd.verb == SacctmgrVerb::add);
  CHECK(cmd.entity == SacctmgrEntity::user);
  CHECK(cmd.names == std::vector<std::string>{"alice"});
  REQUIRE(cmd.settings.size() == 2);
  CHECK(cmd.settings[0] == sched::Setting{"Accounts", "=", "lab"});
  CHECK(cmd.settings[1] == sched::Setting{"Partition", "=", "a4"});
  const auto req = cli::sacctmgr_request(cmd, false);
  CHECK(req.at("op") == "acct_add");
  CHECK(req.at("entity") == "user");
  CHECK(req.at("names") == nlohmann::json::array({"alice"}));
  CHECK(req.at("settings").size() == 2);
  CHECK(req.at("commit") == false);
}

TEST_CASE("sacctmgr's verbs, entities, where and set", "[sacctmgr]") {
  auto cmd = cli::parse_sacctmgr({"modify", "user", "where", "name=alice", "account=lab",
                                  "partition=cpu", "set", "GrpTRES=cpu=2", "MaxSubmitJobs=5"});
  CHECK(cmd.verb == SacctmgrVerb::modify);
  CHECK(cmd.names == std::vector<std::string>{"alice"});
  CHECK(cmd.where ==
        std::vector<sched::Setting>{{"account", "=", "lab"}, {"partition", "=", "cpu"}});
  CHECK(cmd.settings ==
        std::vector<sched::Setting>{{"GrpTRES", "=", "cpu=2"}, {"MaxSubmitJobs", "=", "5"}});

  cmd = cli::parse_sacctmgr({"update", "user", "bob", "set", "qos+=high"});
  CHECK(cmd.verb == SacctmgrVerb::modify);
  CHECK(cmd.settings == std::vector<sched::Setting>{{"qos", "+=", "high"}});

  cmd = cli::parse_sacctmgr({"remove", "user", "bob", "account=physics"});
  CHECK(cmd.verb == SacctmgrVerb::remove);
  CHECK(cmd.names == std::vector<std::string>{"bob"});
  CHECK(cmd.where == std::vector<sched::Setting>{{"account", "=", "physics"}});

  cmd = cli::parse_sacctmgr(
      {"lis", "assoc", "tree", "WithAssoc", "format=account,user%12", "where", "user=alice,bob"});
  CHECK(cmd.verb == SacctmgrVerb::show);
  CHECK(cmd.entity == SacctmgrEntity::association);
  CHECK(cmd.tree);
  CHECK(cmd.with_assoc);
  CHECK(cmd.format == std::vector<std::string>{"account", "user%12"});
  CHECK(cmd.where == std::vector<sched::Setting>{{"user", "=", "alice,bob"}});

  CHECK(cli::parse_sacctmgr({"create", "acct", "a,b"}).names == std::vector<std::string>{"a", "b"});
  CHECK(cli::parse_sacctmgr({"show", "qos"}).entity == SacctmgrEntity::qos);
  CHECK(cli::parse_sacctmgr({"list", "clusters"}).entity == SacctmgrEntity::cluster);
  CHECK(cli::parse_sacctmgr({"show", "tres"}).entity == SacctmgrEntity::tres);
  CHECK(cli::parse_sacctmgr({"add", "qos", "name=high"}).names == std::vector<std::string>{"high"});
  // The cluster's limits are its root association's.
  const auto req = cli::sacctmgr_request(
      cli::parse_sacctmgr({"modify", "cluster", "oracle", "set", "GrpJobs=4"}), true);
  CHECK(req.at("entity") == "account");
  CHECK(req.at("names") == nlohmann::json::array({"root"}));
}

TEST_CASE("malformed sacctmgr commands get Slurm's words", "[sacctmgr]") {
  auto error_of = [](std::vector<std::string> words) {
    try {
      cli::parse_sacctmgr(words);
    } catch (const cli::SacctmgrError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(error_of({"list", "nonsense"}) + "\n" ==
        "No valid entity in list command\n"
        "Input line must include \"Account\", \"Association\", \"Cluster\", \"Configuration\",\n"
        "\"Event\", \"Federation\", \"Problem\", \"QOS\", \"Resource\", \"Reservation\",\n"
        "\"RunAwayJobs\", \"Stats\", \"Transaction\", \"TRES\", \"User\", or \"WCKey\"\n");
  CHECK(error_of({"add"}) ==
        "No valid entity in add command\n"
        "Input line must include \"Account\", \"Cluster\", \"Coordinator\", \"Federation\", "
        "\"QOS\", \"Resource\", or \"User\"");
  CHECK(error_of({"add", "association", "x"}).rfind("No valid entity in add command", 0) == 0);
  CHECK(error_of({"frobnicate", "user"}) == "invalid keyword: frobnicate");
  CHECK(error_of({}) != "(no error)");
  CHECK(error_of({"modify", "user", "alice"}) == " You didn't give me anything to set");
  CHECK(error_of({"modify", "user", "alice", "set", "stray"}) == " Unknown option: stray");
  CHECK(error_of({"add", "user"}) == " Need name of user to add.");
  CHECK(error_of({"add", "user", "Account=lab"}) == " Need name of user to add.");
  CHECK(error_of({"delete", "user", "bob", "account+=x"}) == " Unknown option: account+=x");
  CHECK_THROWS_AS(cli::sacctmgr_show(cli::parse_sacctmgr({"show", "assoc", "format=bogus"}),
                                     cli::default_accounting(), "c", {}),
                  cli::SacctmgrError);
}

TEST_CASE("a state directory without a database lists what stintd will create", "[sacctmgr]") {
  TempDir dir;
  auto store = Store::open(dir.path + "/stint.db", Store::Mode::read_write);
  Accounting fresh = store->accounting();
  CHECK(cli::default_accounting() == fresh);
}

TEST_CASE("sacctmgr replays Slurm's transcript", "[sacctmgr]") {
  Cluster cl;
  for (const Step& s : k_adds) cl.run(s);
  // Without a commit nothing was written: "tmp" was shown, not added.
  CHECK(cl.show({"list", "account", "tmp"}, "n").empty());
  CHECK(cl.c->accounting().find_account("tmp") == nullptr);

  for (const Show& s : k_shows) {
    INFO("sacctmgr -" << s.opts << " " << Catch::Detail::stringify(s.words));
    CHECK(cl.show(s.words, s.opts) == s.expected);
  }
  for (const Step& s : k_modifies) cl.run(s);
  for (const Show& s : k_shows_after_modify) {
    INFO(Catch::Detail::stringify(s.words));
    CHECK(cl.show(s.words, s.opts) == s.expected);
  }
  for (const Step& s : k_qos_steps) cl.run(s);
  for (const Show& s : k_shows_qos) {
    INFO(Catch::Detail::stringify(s.words));
    CHECK(cl.show(s.words, s.opts) == s.expected);
  }
  for (const Step& s : k_deletes) cl.run(s);
  // "echo n | sacctmgr delete user bob" kept bob.
  CHECK(cl.c->accounting().find_user("bob") != nullptr);
  CHECK(cl.c->accounting().find_user("dave") == nullptr);
}

TEST_CASE("only operators and administrators change accounts", "[sacctmgr]") {
  Cluster cl;
  const std::uint32_t other = ::getuid() == 65534 ? 65533 : 65534;
  try {
    cl.call({"add", "account", "lab"}, true, other);
    FAIL("a plain user added an account");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::access_denied);
  }
  CHECK(cl.c->accounting().find_account("lab") == nullptr);
  // Reading what would change is refused as well.
  CHECK_THROWS_AS(cl.call({"add", "account", "lab"}, false, other), Error);

  // An operator may add accounts, but not make administrators.
  const std::string name = proc::user_name(other);
  cl.call({"add", "user", name, "Account=root", "AdminLevel=Operator"}, true);
  cl.call({"add", "account", "lab"}, true, other);
  CHECK(cl.c->accounting().find_account("lab") != nullptr);
  try {
    cl.call({"modify", "user", name, "set", "AdminLevel=Admin"}, true, other);
    FAIL("an operator made an administrator");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::access_denied);
  }
  cl.call({"modify", "user", name, "set", "AdminLevel=None"}, true);
  CHECK_THROWS_AS(cl.call({"add", "account", "lab2"}, true, other), Error);
}

TEST_CASE("sacctmgr's refusals keep the records as they were", "[sacctmgr]") {
  Cluster cl;
  const Accounting before = cl.c->accounting();
  auto refusal = [&](std::vector<std::string> words) {
    try {
      cl.call(words, true);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK(refusal({"add", "user", "carol", "Account=nosuchacct"}) ==
        " This account 'nosuchacct' doesn't exist.\n"
        "        Contact your admin to add this account.\n"
        " No associations or wckeys created.");
  CHECK(refusal({"add", "user", "carol", "Account=root", "Partition=nosuch"}) ==
        " This partition 'nosuch' doesn't exist on cluster 'oracle'.");
  CHECK(refusal({"add", "account", "x", "Parent=nosuch"}) ==
        " Parent account 'nosuch' doesn't exist.");
  CHECK(refusal({"add", "account", "x", "Bogus=1"}) == " Unknown option: Bogus=1");
  CHECK(refusal({"add", "account", "x", "MaxJobs=many"}) == " Bad MaxJobs value: many");
  CHECK(refusal({"add", "qos", "x", "Preempt=nosuch"}) ==
        " error: You gave a bad qos 'nosuch'.  Use 'list qos' to get complete list.");
  CHECK(refusal({"delete", "account", "root"}) ==
        " Error with request: You can not remove the root account");
  CHECK(refusal({"add", "account", "x", "Cluster=other"}) ==
        " This cluster 'other' doesn't exist.\n"
        "        Contact your admin to add it to accounting.");
  CHECK(cl.c->accounting() == before);

  // An account cannot become its own descendant's child.
  cl.call({"add", "account", "a"}, true);
  cl.call({"add", "account", "b", "Parent=a"}, true);
  CHECK(refusal({"modify", "account", "a", "set", "Parent=b"}).find("beneath") !=
        std::string::npos);
  cl.call({"modify", "account", "b", "set", "Parent=root"}, true);
  CHECK(cl.c->accounting().find_account("b")->parent == "root");
}

TEST_CASE("a deleted QOS leaves no references behind", "[sacctmgr]") {
  Cluster cl;
  cl.call({"add", "qos", "high"}, true);
  cl.call({"add", "qos", "low", "Preempt=high"}, true);
  cl.call({"add", "user", "bob", "Account=root", "QOS=high,normal", "DefaultQOS=high"}, true);
  cl.call({"delete", "qos", "high"}, true);
  const Accounting& a = cl.c->accounting();
  CHECK(a.find_qos("high") == nullptr);
  CHECK(a.find_qos("low")->preempt.empty());
  CHECK(a.find_association("root", "bob", "")->qos == std::vector<std::string>{"normal"});
  CHECK(a.find_association("root", "bob", "")->default_qos.empty());
}

TEST_CASE("sacctmgr names what it adds as Slurm's add commands do", "[sacctmgr]") {
  // add user user=NAME (user_functions.c: Names= or Users=), add account
  // accounts=NAME or acct=NAME (account_functions.c).
  auto cmd = cli::parse_sacctmgr({"add", "user", "user=t1,t2", "account=lab", "cluster=c"});
  CHECK(cmd.names == std::vector<std::string>{"t1", "t2"});
  CHECK(cmd.settings ==
        std::vector<sched::Setting>{{"account", "=", "lab"}, {"cluster", "=", "c"}});
  CHECK(cli::parse_sacctmgr({"add", "user", "Users=t1"}).names == std::vector<std::string>{"t1"});
  CHECK(cli::parse_sacctmgr({"add", "account", "accounts=a1"}).names ==
        std::vector<std::string>{"a1"});
  CHECK(cli::parse_sacctmgr({"add", "account", "Acct=a1"}).names == std::vector<std::string>{"a1"});
  // An account's Accounts= is not a user's.
  CHECK(cli::parse_sacctmgr({"add", "user", "bob", "account=lab"}).names ==
        std::vector<std::string>{"bob"});
}

TEST_CASE("sacctmgr show config, show stats and clear stats", "[sacctmgr]") {
  CHECK(cli::parse_sacctmgr({"show", "config"}).entity == SacctmgrEntity::config);
  CHECK(cli::parse_sacctmgr({"list", "Configuration"}).entity == SacctmgrEntity::config);
  auto cmd = cli::parse_sacctmgr({"show", "stats", "ave"});
  CHECK(cmd.entity == SacctmgrEntity::stats);
  CHECK(cmd.names == std::vector<std::string>{"ave"});
  cmd = cli::parse_sacctmgr({"clear", "stats"});
  CHECK(cmd.verb == SacctmgrVerb::clear);
  CHECK(cmd.entity == SacctmgrEntity::stats);
  auto error_of = [](std::vector<std::string> words) {
    try {
      cli::parse_sacctmgr(words);
    } catch (const cli::SacctmgrError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(error_of({"clear", "users"}) ==
        "No valid entity in list command\nInput line must include \"Stats\"");
  CHECK(error_of({"clear"}) ==
        "No valid entity in list command\nInput line must include \"Stats\"");
  CHECK(error_of({"show", "config", "x"}) == " Unknown option: x");
  CHECK(error_of({"clear", "stats", "x"}) == " Unknown option: x");
  CHECK(error_of({"show", "stats", "x"}) ==
        " Unknown option: x (show stats takes ave_time or total_time)");

  // show config: config_functions.c's lines from scontrol's pairs, then
  // slurmdbd's.
  const std::vector<ConfigPair> slurm = {{"AccountingStorageHost", "localhost"},
                                         {"AccountingStorageType", "accounting_storage/slurmdbd"},
                                         {"MessageTimeout", "10 sec"},
                                         {"SlurmUser", "alice(1000)"},
                                         {"TrackWCKey", "No"}};
  cli::SacctmgrDbdFacts f;
  f.now = 0;
  f.boot_time = k_no_time;
  f.database = "/s/stint.db";
  f.config_file = "/s/stint.yaml";
  f.host = "box";
  const std::string text = cli::sacctmgr_config_text(slurm, f);
  CHECK(text.find("\nAccountingStorageHost  = localhost\n") != std::string::npos);
  CHECK(text.find("\nAccountingStorageParameters = (null)\n") != std::string::npos);
  CHECK(text.find("\nSlurmUserId            = alice(1000)\n") != std::string::npos);
  CHECK(text.find("\nTrackWCKey             = No\n\nSlurmDBD configuration:\n"
                  "AllowNoDefAcct         = No\n") != std::string::npos);
  CHECK(text.find("\nMessageTimeout         = 10 secs\n") != std::string::npos);
  CHECK(text.find("\nDbdHost                = box\n") != std::string::npos);
  CHECK(text.find("\nStorageLoc             = /s/stint.db\n") != std::string::npos);
  CHECK(text.find("\nStorageUser            = alice\n") != std::string::npos);
  CHECK(text.ends_with("\nTrackWCKey             = No\nTrackSlurmctldDown     = No\n"));

  // show stats: most requests first (ties: more time, then the lower id),
  // or by average or total time.
  const nlohmann::json reply = {
      {"since", 100},
      {"types",
       {{{"name", "DBD_FINI"}, {"id", 1401}, {"count", 3}, {"total_usec", 0}},
        {{"name", "REQUEST_PING"}, {"id", 1008}, {"count", 2}, {"total_usec", 50}},
        {{"name", "DBD_ADD_QOS"}, {"id", 1447}, {"count", 1}, {"total_usec", 400}}}},
      {"users", {{{"uid", 0}, {"count", 3}, {"total_usec", 450}}}}};
  auto name = [](std::uint32_t uid) { return uid == 0 ? std::string("root") : std::string("?"); };
  std::string stats = cli::sacctmgr_stats_text(reply, 200, cli::StatsOrder::count, name);
  CHECK(stats.find("All statistics are in microseconds\n") != std::string::npos);
  CHECK(stats.find(" (200)\nData since                    ") != std::string::npos);
  CHECK(stats.find("\nRemote Procedure Call statistics by message type\n"
                   "\tDBD_FINI                 ( 1401) count:3      ave_time:0      total_time:0\n"
                   "\tREQUEST_PING             ( 1008) count:2      ave_time:25     total_time:50\n"
                   "\tDBD_ADD_QOS              ( 1447) count:1      ave_time:400    "
                   "total_time:400\n\n"
                   "Remote Procedure Call statistics by user\n"
                   "\troot                (         0) count:3      ave_time:150    "
                   "total_time:450\n") != std::string::npos);
  stats = cli::sacctmgr_stats_text(reply, 200, cli::StatsOrder::ave_time, name);
  CHECK(stats.find("message type\n\tDBD_ADD_QOS ") != std::string::npos);
  stats = cli::sacctmgr_stats_text(reply, 200, cli::StatsOrder::total_time, name);
  CHECK(stats.find("message type\n\tDBD_ADD_QOS ") != std::string::npos);
}
