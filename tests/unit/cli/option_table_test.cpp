#include "cli/option_table.hpp"

#include <array>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace {

using namespace stint::cli;

// A small table with Slurm's awkward cases: an alias (same id), options that
// share a prefix, an optional value, a short option with an optional value.
constexpr std::array k_table = {
    OptionSpec{1, 'M', "clusters", ArgKind::required, 3, "SBATCH_CLUSTERS SLURM_CLUSTERS",
               "Parallel run options:", "  -M, --clusters=names        clusters\n", Effect::acts,
               "Only this cluster."},
    OptionSpec{2, '\0', "cluster", ArgKind::required, 2, "", "Parallel run options:",
               "      --cluster=name          same as --clusters\n", Effect::acts, ""},
    OptionSpec{3, '\0', "cluster-constraint", ArgKind::required, 1, "", "Constraint options:",
               "      --cluster-constraint=[!]list specify a list of cluster constraints\n",
               Effect::recorded, "One cluster here."},
    OptionSpec{4, '\0', "ntasks-per-node", ArgKind::required, 4, "", "Constraint options:",
               "      --ntasks-per-node=n     tasks per node\n", Effect::acts, ""},
    OptionSpec{4, '\0', "tasks-per-node", ArgKind::required, 5, "", "Constraint options:",
               "      --tasks-per-node=n      same as --ntasks-per-node\n", Effect::acts, ""},
    OptionSpec{5, 'k', "no-kill", ArgKind::optional, 6, "", "Constraint options:",
               "  -k, --no-kill               do not kill job on node failure\n", Effect::acts,
               ""},
    OptionSpec{6, '\0', "mail-type", ArgKind::required, 7, "", "Constraint options:",
               "      --mail-type=type        notify on state change\n", Effect::acts, ""},
    OptionSpec{7, 'H', "hold", ArgKind::none, 8, "", "Constraint options:",
               "  -H, --hold                  submit job in held state\n", Effect::acts, ""},
};

UsageError usage_error(const std::vector<std::string>& args) {
  try {
    (void)scan_options(k_table, args);
  } catch (const UsageError& e) {
    return e;
  }
  FAIL("no usage error");
  return UsageError("");
}

}  // namespace

TEST_CASE("getopt_long: exact names win over prefixes, aliases are one option", "[getopt]") {
  auto scan = scan_options(k_table, {"--cluster=a", "--tasks-per=2", "--ntasks-per-n=3", "x"});
  REQUIRE(scan.options.size() == 3);
  CHECK(scan.options[0].id == 2);
  CHECK(scan.options[1].id == 4);
  CHECK(scan.options[1].spelling == "--tasks-per-node");
  CHECK(scan.options[2].value == "3");
  CHECK(scan.first_operand == 3);
  CHECK(scan.options[2].arg_index == 2);
}

TEST_CASE("getopt_long: an ambiguous prefix lists the candidates in Slurm's order", "[getopt]") {
  const UsageError e = usage_error({"--clus=x"});
  CHECK(std::string(e.what()) ==
        "option '--clus=x' is ambiguous; possibilities: '--cluster-constraint' '--cluster' "
        "'--clusters'");
}

TEST_CASE("getopt_long: optional values only attached", "[getopt]") {
  auto scan = scan_options(k_table, {"-k", "-kno", "--no-kill=off", "--no-kill", "job.sh"});
  REQUIRE(scan.options.size() == 4);
  CHECK_FALSE(scan.options[0].value);
  CHECK(scan.options[1].value == "no");
  CHECK(scan.options[2].value == "off");
  CHECK_FALSE(scan.options[3].value);
  CHECK(scan.first_operand == 4);
  // Bundled flags, then "--" ends the options.
  scan = scan_options(k_table, {"-Hk", "--", "-H"});
  CHECK(scan.options.size() == 2);
  CHECK(scan.first_operand == 2);
}

TEST_CASE("getopt_long: errors in glibc's words, with a suggestion", "[getopt]") {
  UsageError e = usage_error({"-H", "--mial-type=ALL"});
  CHECK(std::string(e.what()) == "unrecognized option '--mial-type=ALL'");
  CHECK(e.suggestion() == "--mail-type");
  CHECK(e.arg_index() == 1);
  e = usage_error({"--frobnicate"});
  CHECK(e.suggestion().empty());
  CHECK(std::string(usage_error({"--hold=1"}).what()) ==
        "option '--hold' doesn't allow an argument");
  CHECK(std::string(usage_error({"--mail-type"}).what()) ==
        "option '--mail-type' requires an argument");
  CHECK(std::string(usage_error({"-Z"}).what()) == "invalid option -- 'Z'");
  CHECK(std::string(usage_error({"-M"}).what()) == "option requires an argument -- 'M'");
}

TEST_CASE("closest_option finds typos, not strangers", "[getopt]") {
  CHECK(closest_option(k_table, "mial-type") == "--mail-type");
  CHECK(closest_option(k_table, "mail_type") == "--mail-type");
  CHECK(closest_option(k_table, "clsuters") == "--clusters");
  CHECK(closest_option(k_table, "no") == "");
  CHECK(closest_option(k_table, "partition") == "");
}

TEST_CASE("help text: sections in table order, each option's lines", "[getopt][help]") {
  const std::string help = help_text(k_table, "Usage: x [OPTIONS...]");
  CHECK(help.rfind("Usage: x [OPTIONS...]\n\nParallel run options:\n  -M, --clusters=names", 0) ==
        0);
  CHECK(help.find("\n\nConstraint options:\n      --cluster-constraint") != std::string::npos);
  CHECK(help.substr(help.size() - 2) == "\n\n");
}

TEST_CASE("the man page's options come from the table", "[getopt][help]") {
  const std::string scd = options_scdoc(k_table);
  CHECK(scd.find("## Parallel run options\n\n*-M*, *--clusters*=_names_\n\tclusters\n\tOnly "
                 "this cluster.\n\tInput environment variable: *SBATCH\\_CLUSTERS*, "
                 "*SLURM\\_CLUSTERS*.\n") == 0);
  CHECK(scd.find("*--cluster-constraint*=_[!]list_\n\tspecify a list of cluster constraints\n"
                 "\tRecorded only. One cluster here.\n") != std::string::npos);
  CHECK(scd.find("*-k*, *--no-kill*\n") != std::string::npos);
}
