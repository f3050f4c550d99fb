#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/parse.hpp>

#include "error_of.hpp"

using stint::Dependency;
using stint::DependencyTerm;
using stint::DependencyType;
using stint::Errc;
using stint::k_no_array_task;
using stint::parse::dependency;
using stint::parse::format_dependency;
using stint::test::error_of;

namespace {
DependencyTerm term(DependencyType type, stint::JobId id, std::uint32_t task = k_no_array_task,
                    stint::Seconds delay = 0) {
  return DependencyTerm{type, id, task, delay};
}
}  // namespace

TEST_CASE("dependency reads each type", "[parse][dependency]") {
  CHECK(dependency("afterok:12").terms == std::vector{term(DependencyType::afterok, 12)});
  CHECK(dependency("afterany:12").terms == std::vector{term(DependencyType::afterany, 12)});
  CHECK(dependency("afternotok:12").terms == std::vector{term(DependencyType::afternotok, 12)});
  CHECK(dependency("aftercorr:12").terms == std::vector{term(DependencyType::aftercorr, 12)});
  CHECK(dependency("after:12").terms == std::vector{term(DependencyType::after, 12)});
  CHECK(dependency("singleton").terms == std::vector{term(DependencyType::singleton, 0)});
  // Slurm matches the words without regard to case.
  CHECK(dependency("AfterOK:12").terms == std::vector{term(DependencyType::afterok, 12)});
  CHECK(dependency("SINGLETON").terms == std::vector{term(DependencyType::singleton, 0)});
  // No burst buffers: afterburstbuffer is afterany.
  CHECK(dependency("afterburstbuffer:3").terms == std::vector{term(DependencyType::afterany, 3)});
  CHECK_FALSE(dependency("afterok:12").any);
}

TEST_CASE("dependency reads job lists, array tasks and delays", "[parse][dependency]") {
  CHECK(dependency("afterok:12:13").terms ==
        std::vector{term(DependencyType::afterok, 12), term(DependencyType::afterok, 13)});
  CHECK(dependency("afterok:12_3").terms == std::vector{term(DependencyType::afterok, 12, 3)});
  CHECK(dependency("afterok:12_0").terms == std::vector{term(DependencyType::afterok, 12, 0)});
  // "_*" is the whole array, as a bare array id is.
  CHECK(dependency("afterok:87_*").terms == std::vector{term(DependencyType::afterok, 87)});
  CHECK(dependency("after:12+5").terms ==
        std::vector{term(DependencyType::after, 12, k_no_array_task, 300)});
  CHECK(dependency("after:12+5:13:14_2+1").terms ==
        std::vector{term(DependencyType::after, 12, k_no_array_task, 300),
                    term(DependencyType::after, 13), term(DependencyType::after, 14, 2, 60)});
  // Slurm's old form: a bare job id is afterany.
  CHECK(dependency("12").terms == std::vector{term(DependencyType::afterany, 12)});
  CHECK(dependency("12,13").terms ==
        std::vector{term(DependencyType::afterany, 12), term(DependencyType::afterany, 13)});
}

TEST_CASE("dependency joins terms with ',' (all) or '?' (any)", "[parse][dependency]") {
  // 12-arrays-deps.txt: d-and and d-or.
  const Dependency all = dependency("afterany:93,afterok:93");
  CHECK_FALSE(all.any);
  CHECK(all.terms ==
        std::vector{term(DependencyType::afterany, 93), term(DependencyType::afterok, 93)});
  const Dependency any = dependency("afterany:93?afterok:93");
  CHECK(any.any);
  CHECK(any.terms == all.terms);
  CHECK(dependency("singleton,afterok:1").terms.size() == 2);
  CHECK(dependency("afterok:12?afternotok:13:14").terms.size() == 3);
}

TEST_CASE("dependency of no text is no dependency", "[parse][dependency]") {
  CHECK(dependency("").empty());
  CHECK_FALSE(dependency("").any);
}

TEST_CASE("dependency refuses junk with Slurm's message", "[parse][dependency]") {
  // 10-errors.txt: afterok:abc and bogus:1 are "Job dependency problem".
  const std::string text = GENERATE(
      as<std::string>{}, "afterok:abc", "bogus:1", "afterok",
      "afterok:", "afterok:12:", "afterok::12", ":12", "afterok:0", "afterok:-1", "afterok:+1",
      "afterok:12,", ",afterok:12", "afterok:12,,afterok:13", "afterok:12?",
      "afterok:12,afterok:13?afterok:14", "afterok:12_", "afterok:12_x", "afterok:12_3_4",
      "afterok:12_-1", "afterok:12+5", "afterany:12+5", "after:12+", "after:12+0", "after:12+x",
      "after:12+-5", "afterok:12x", "afterok: 12", " afterok:12", "afterok:12 ", "singleton:12",
      "singletons", "abc", "12x", "0", "12:13", "afteroks:12", "aft:12", "expand:12",
      "afterok:99999999999", "afterok:4294967296", "afterok:12_4294967294");
  CAPTURE(text);
  const auto e = error_of([&] { (void)dependency(text); });
  REQUIRE(e);
  CHECK(e->code() == Errc::invalid_argument);
  CHECK(std::string(e->what()) == "Job dependency problem");
}

TEST_CASE("format_dependency writes it back as scontrol shows it", "[parse][dependency]") {
  CHECK(format_dependency(Dependency{}).empty());
  CHECK(format_dependency(dependency("afterok:12,afterany:14_3")) == "afterok:12,afterany:14_3");
  CHECK(format_dependency(dependency("after:12+5")) == "after:12+5");
  CHECK(format_dependency(dependency("singleton")) == "singleton");
  CHECK(format_dependency(dependency("afterok:12:13")) == "afterok:12,afterok:13");
  CHECK(format_dependency(dependency("afterany:93?afterok:93")) == "afterany:93?afterok:93");
  CHECK(format_dependency(dependency("AFTERNOTOK:7_*")) == "afternotok:7");
  CHECK(format_dependency(dependency("12")) == "afterany:12");
  CHECK(format_dependency(dependency("aftercorr:5,singleton")) == "aftercorr:5,singleton");
}

TEST_CASE("format_dependency reads back to the same dependency", "[parse][dependency]") {
  for (const std::string text :
       {"afterok:1:2_3,after:4+10,singleton", "afterany:9?afternotok:8_0", "aftercorr:77"}) {
    CAPTURE(text);
    const Dependency d = dependency(text);
    CHECK(dependency(format_dependency(d)) == d);
  }
}
