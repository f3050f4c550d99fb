// Autodetection: the parsing halves with fixed text, and the real machine.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include <stint/config.hpp>
#include <stint/error.hpp>

#include "helpers.hpp"

using stint::ConfigOrigin;
using stint::gpu_type_from_name;
using stint::gpus_from_nvidia_smi;
using stint::k_infinite;
using stint::meminfo_total_mb;

TEST_CASE("meminfo_total_mb reads MemTotal and rounds down to MiB", "[config][detect]") {
  CHECK(meminfo_total_mb("MemTotal:       24421876 kB\nMemFree:         1000 kB\n") == 23849);
  CHECK(meminfo_total_mb("MemFree: 5 kB\nMemTotal: 2047 kB\n") == 1);
  CHECK(meminfo_total_mb("MemTotal: 1023 kB") == 0);
  CHECK(meminfo_total_mb("MemTotal:\t1048576 kB\n") == 1024);
  CHECK_THROWS_AS(meminfo_total_mb("MemFree: 5 kB\n"), stint::Error);
  CHECK_THROWS_AS(meminfo_total_mb("MemTotal: lots kB\n"), stint::Error);
  CHECK_THROWS_AS(meminfo_total_mb(""), stint::Error);
}

TEST_CASE("gpu_type_from_name keeps the model", "[config][detect]") {
  CHECK(gpu_type_from_name("NVIDIA H200") == "h200");
  CHECK(gpu_type_from_name("NVIDIA A100-SXM4-80GB") == "a100");
  CHECK(gpu_type_from_name("NVIDIA H100 80GB HBM3") == "h100");
  CHECK(gpu_type_from_name("Tesla V100-SXM2-16GB") == "v100");
  CHECK(gpu_type_from_name("NVIDIA GeForce RTX 4090") == "rtx4090");
  CHECK(gpu_type_from_name("Quadro RTX 8000") == "rtx8000");
  CHECK(gpu_type_from_name("NVIDIA L4") == "l4");
  CHECK(gpu_type_from_name("NVIDIA TITAN Xp") == "titan");
  CHECK(gpu_type_from_name("") == "");
}

TEST_CASE("gpus_from_nvidia_smi counts the names", "[config][detect]") {
  CHECK(gpus_from_nvidia_smi("NVIDIA H200\n") == std::pair<std::uint32_t, std::string>{1, "h200"});
  CHECK(gpus_from_nvidia_smi("NVIDIA A100-SXM4-80GB\nNVIDIA A100-SXM4-80GB\n\n") ==
        std::pair<std::uint32_t, std::string>{2, "a100"});
  // Mixed models: a pool has one type, so none.
  CHECK(gpus_from_nvidia_smi("NVIDIA A100-SXM4-80GB\nNVIDIA GeForce RTX 4090\n") ==
        std::pair<std::uint32_t, std::string>{2, ""});
  CHECK(gpus_from_nvidia_smi("") == std::pair<std::uint32_t, std::string>{0, ""});
  CHECK(gpus_from_nvidia_smi("No devices were found\n") ==
        std::pair<std::uint32_t, std::string>{0, ""});
  CHECK(
      gpus_from_nvidia_smi("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                           "driver.\n")
          .first == 0);
  CHECK(gpus_from_nvidia_smi("NVIDIA H200\r\nNVIDIA H200\r\n").first == 2);
}

TEST_CASE("config_for_machine: one pool and one partition, both local", "[config][detect]") {
  stint::Config c = stint::config_for_machine(stint::test::test_machine());
  REQUIRE(c.node_pools.size() == 1);
  const stint::NodePool& pool = c.node_pools[0];
  CHECK(pool.id == "local");
  CHECK(pool.count == 1);
  CHECK(pool.cpus == 8);
  CHECK(pool.memory_mb == 32000);
  CHECK(pool.gpus == 2);
  CHECK(pool.gpu_type == "h200");
  CHECK(pool.node_names == std::vector<std::string>{"box"});
  CHECK(pool.origin == ConfigOrigin::autodetected);
  REQUIRE(c.partitions.size() == 1);
  CHECK(c.partitions[0].id == "local");
  CHECK(c.partitions[0].node_pool_ids == std::vector<std::string>{"local"});
  CHECK(c.partitions[0].max_time == k_infinite);
  CHECK(c.default_partition()->id == "local");
  CHECK(c.nodes()[0].name == "box");
  CHECK(c.cluster_name == "stint");
  CHECK(c.source_path.empty());
}

TEST_CASE("detect_machine sees this machine", "[config][detect]") {
  stint::Machine m = stint::detect_machine();
  CHECK_FALSE(m.hostname.empty());
  CHECK(m.hostname.find('.') == std::string::npos);
  CHECK(m.cpus >= 1);
  CHECK(m.memory_mb >= 64);
  if (m.gpus == 0) CHECK(m.gpu_type.empty());
  stint::Config c = stint::autodetect_config();
  CHECK(c.node_pools[0].cpus == m.cpus);
  CHECK(c.node_pools[0].node_names == std::vector<std::string>{m.hostname});
}

namespace {

/// Puts a fake nvidia-smi first on PATH for the life of the object.
class FakeNvidiaSmi {
 public:
  explicit FakeNvidiaSmi(const std::string& script) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "stint-smi-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    m_dir = tmpl;
    std::string exe = m_dir + "/nvidia-smi";
    std::ofstream(exe) << "#!/bin/sh\n" << script;
    std::filesystem::permissions(exe, std::filesystem::perms::owner_all);
    const char* path = std::getenv("PATH");
    m_old_path = path ? path : "";
    ::setenv("PATH", (m_dir + ":" + m_old_path).c_str(), 1);
  }
  ~FakeNvidiaSmi() {
    ::setenv("PATH", m_old_path.c_str(), 1);
    std::filesystem::remove_all(m_dir);
  }

 private:
  std::string m_dir;
  std::string m_old_path;
};

}  // namespace

TEST_CASE("detect_machine asks nvidia-smi for the GPUs", "[config][detect]") {
  SECTION("two GPUs") {
    FakeNvidiaSmi smi(
        "[ \"$1\" = --query-gpu=name ] && [ \"$2\" = --format=csv,noheader ] || exit 2\n"
        "echo 'NVIDIA H200'; echo 'NVIDIA H200'; echo noise >&2\n");
    stint::Machine m = stint::detect_machine();
    CHECK(m.gpus == 2);
    CHECK(m.gpu_type == "h200");
  }
  SECTION("a failing nvidia-smi means no GPUs") {
    FakeNvidiaSmi smi("echo 'NVIDIA H200'; exit 9\n");
    CHECK(stint::detect_machine().gpus == 0);
  }
  SECTION("one killed by a signal means no GPUs") {
    FakeNvidiaSmi smi("echo 'NVIDIA H200'; kill -9 $$\n");
    CHECK(stint::detect_machine().gpus == 0);
  }
  SECTION("no nvidia-smi on PATH means no GPUs") {
    const char* path = std::getenv("PATH");
    std::string old = path ? path : "";
    ::setenv("PATH", "/nonexistent", 1);
    stint::Machine m = stint::detect_machine();
    ::setenv("PATH", old.c_str(), 1);
    CHECK(m.gpus == 0);
    CHECK(m.gpu_type.empty());
  }
}
