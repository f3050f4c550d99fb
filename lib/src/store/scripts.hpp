#pragma once
// What each job was submitted with, its script and environment, kept for its
// launches in a database of their own, <state>/scripts.db: stint.db is
// readable by every user (the tools read it) and these are private (an
// environment holds tokens), so this file is stintd's alone (0600).
//
// Why a database and not the spool files the first versions wrote: making a
// submission durable then took a journal commit of the file system for the
// new folder and files (3-9 ms on a virtual disk); a row appended to a WAL
// that is already there takes one data sync (about 1 ms).

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/model.hpp>

namespace stint {

struct SubmittedScript {
  std::string script;
  std::string environment;  ///< the JSON object of the job's environment
};

class ScriptStore {
 public:
  /// Opens (creating it with mode 0600) the database at `path`.
  static std::unique_ptr<ScriptStore> open(const std::string& path);
  ~ScriptStore();
  ScriptStore(const ScriptStore&) = delete;
  ScriptStore& operator=(const ScriptStore&) = delete;

  /// Keeps the script and environment of job `id` (an array's, under its
  /// first task's id), replacing what an id left by a failed submission had.
  /// Written when it returns (a killed process loses nothing), on disk once
  /// sync() has returned.
  void put(JobId id, std::string_view script, std::string_view environment);
  /// Puts what the puts wrote on disk (the WAL's data sync). Touches no
  /// connection: another thread may run it while this one commits
  /// elsewhere. Throws Errc::store.
  void sync();
  std::optional<SubmittedScript> get(JobId id);
  /// Forgets the scripts of purged jobs, and compacts the file (VACUUM)
  /// when asked to.
  void remove(const std::vector<JobId>& ids);
  void compact();
  /// As Store::empty_wal_when_quiet: the WAL file emptied once nothing has
  /// been written to it for `quiet`.
  bool empty_wal_when_quiet(std::chrono::milliseconds quiet);
  /// Keeps the variables of cluster run `run` ("project/n"), a JSON array of
  /// [name, value] pairs.
  void put_run_env(std::string_view run, std::string_view env);
  std::optional<std::string> run_env(std::string_view run);

 private:
  struct Impl;
  explicit ScriptStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace stint
