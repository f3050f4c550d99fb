#include <string>

#include <catch2/catch.hpp>

#include <stint/format.hpp>

TEST_CASE("yaml_from_json: the JSON document as Slurm's tagged YAML", "[yaml]") {
  const std::string yaml = stint::format::yaml_from_json(
      R"({"meta":{"plugin":{"type":"openapi/v0.0.38"}},"errors":[],)"
      R"("jobs":[{"account":"root","flags":["JOB_ACCRUE_OVER"],"comment":null,)"
      R"("batch_flag":true,"billable_tres":1.0,"job_id":22,"name":"a: b","empty":{}}]})");
  CHECK(yaml ==
        "%YAML 1.1\n"
        "--- !!map\n"
        "!!str meta: !!map\n"
        "  !!str plugin: !!map\n"
        "    !!str type: !!str openapi/v0.0.38\n"
        "!!str errors: !!seq []\n"
        "!!str jobs: !!seq\n"
        "- !!map\n"
        "  !!str account: !!str root\n"
        "  !!str flags: !!seq\n"
        "  - !!str JOB_ACCRUE_OVER\n"
        "  !!str comment: !!null null\n"
        "  !!str batch_flag: !!bool true\n"
        "  !!str billable_tres: !!float 1.000000\n"
        "  !!str job_id: !!int 22\n"
        "  !!str name: !!str \"a: b\"\n"
        "  !!str empty: !!map {}\n");
}
