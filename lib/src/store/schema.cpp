#include "store/schema.hpp"

namespace stint::store_schema {

const std::vector<std::string_view>& migrations() {
  static const std::vector<std::string_view> k_migrations = {
      // 1: meta and jobs. The request and the allocation are JSON (they are read
      // and written whole); everything a query filters or sorts on is a column.
      R"sql(
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE jobs (
  id            INTEGER PRIMARY KEY,
  name          TEXT    NOT NULL,
  user_id       INTEGER NOT NULL,
  group_id      INTEGER NOT NULL,
  user_name     TEXT    NOT NULL,
  partition     TEXT    NOT NULL,
  account       TEXT    NOT NULL,
  qos           TEXT    NOT NULL,
  state         INTEGER NOT NULL,
  reason        INTEGER NOT NULL,
  hold_reason   INTEGER NOT NULL,
  priority      INTEGER NOT NULL,
  submit_time   INTEGER NOT NULL,
  eligible_time INTEGER NOT NULL,
  start_time    INTEGER NOT NULL,
  end_time      INTEGER NOT NULL,
  time_limit    INTEGER NOT NULL,
  exit_status   INTEGER NOT NULL,
  exit_signal   INTEGER NOT NULL,
  user_cpu_us   INTEGER NOT NULL,
  sys_cpu_us    INTEGER NOT NULL,
  max_rss_kb    INTEGER NOT NULL,
  restart_count INTEGER NOT NULL,
  stdout_path   TEXT    NOT NULL,
  stderr_path   TEXT    NOT NULL,
  request       TEXT    NOT NULL,
  alloc         TEXT    NOT NULL,
  spec          TEXT    NOT NULL
);
CREATE INDEX jobs_by_state ON jobs (state);
CREATE INDEX jobs_by_end ON jobs (end_time);
INSERT INTO meta (key, value) VALUES ('next_job_id', '1');
)sql",
      // 2: arrays, dependencies, requeue, and every earlier attempt of a requeued
      // job (sacct --duplicates). An attempt keeps what differs between runs.
      R"sql(
ALTER TABLE jobs ADD COLUMN array_job_id   INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN array_task_id  INTEGER NOT NULL DEFAULT 4294967294;
ALTER TABLE jobs ADD COLUMN array_throttle INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN dependency     TEXT    NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN requeue        INTEGER NOT NULL DEFAULT 1;
ALTER TABLE jobs ADD COLUMN cancelled_by   INTEGER NOT NULL DEFAULT 0;
CREATE INDEX jobs_by_array ON jobs (array_job_id) WHERE array_job_id != 0;
CREATE TABLE job_attempts (
  job_id        INTEGER NOT NULL,
  attempt       INTEGER NOT NULL,
  state         INTEGER NOT NULL,
  reason        INTEGER NOT NULL,
  submit_time   INTEGER NOT NULL,
  eligible_time INTEGER NOT NULL,
  start_time    INTEGER NOT NULL,
  end_time      INTEGER NOT NULL,
  exit_status   INTEGER NOT NULL,
  exit_signal   INTEGER NOT NULL,
  user_cpu_us   INTEGER NOT NULL,
  sys_cpu_us    INTEGER NOT NULL,
  max_rss_kb    INTEGER NOT NULL,
  alloc         TEXT    NOT NULL,
  PRIMARY KEY (job_id, attempt)
) WITHOUT ROWID;
)sql",
      // 3: accounts, users, associations and QOS (sacctmgr). What a limit check
      // or a listing filters on is a column; the limits and lists are JSON
      // (store/accounts.cpp). The records Slurm creates with a cluster come
      // with it: the root account and its association, the root user
      // (Administrator) with an association to root, and the QOS normal.
      R"sql(
CREATE TABLE accounts (
  name         TEXT PRIMARY KEY,
  description  TEXT NOT NULL,
  organization TEXT NOT NULL,
  parent       TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE users (
  name            TEXT PRIMARY KEY,
  default_account TEXT    NOT NULL,
  admin_level     INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE associations (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  account   TEXT    NOT NULL,
  user_name TEXT    NOT NULL,
  partition TEXT    NOT NULL,
  shares    INTEGER NOT NULL,
  settings  TEXT    NOT NULL,
  UNIQUE (account, user_name, partition)
);
CREATE TABLE qos (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  name        TEXT    NOT NULL UNIQUE,
  description TEXT    NOT NULL,
  priority    INTEGER NOT NULL,
  settings    TEXT    NOT NULL
);
INSERT INTO accounts (name, description, organization, parent)
  VALUES ('root', 'default root account', 'root', '');
INSERT INTO users (name, default_account, admin_level) VALUES ('root', 'root', 2);
INSERT INTO associations (account, user_name, partition, shares, settings)
  VALUES ('root', '', '', 1, '{"qos":["normal"]}');
INSERT INTO associations (account, user_name, partition, shares, settings)
  VALUES ('root', 'root', '', 1, '{}');
INSERT INTO qos (name, description, priority, settings)
  VALUES ('normal', 'Normal QOS default', 0, '{}');
)sql",
      // 4: node states set by scontrol (DRAIN, DOWN, with who set them, why and
      // when) and partition settings changed by scontrol update, kept as
      // overrides of the config file (JSON, store/nodes.cpp). A node or a
      // partition without a row is as the config says.
      R"sql(
CREATE TABLE node_states (
  name      TEXT PRIMARY KEY,
  state     INTEGER NOT NULL,
  reason    TEXT    NOT NULL,
  user_id   INTEGER NOT NULL,
  user_name TEXT    NOT NULL,
  since     INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE partition_overrides (
  name     TEXT PRIMARY KEY,
  settings TEXT NOT NULL
) WITHOUT ROWID;
)sql",
      // 5: job steps (srun inside an allocation), one row per step of each
      // attempt of a job: sacct's "12.0" lines.
      R"sql(
CREATE TABLE steps (
  job_id      INTEGER NOT NULL,
  attempt     INTEGER NOT NULL,
  step_id     INTEGER NOT NULL,
  name        TEXT    NOT NULL,
  nodes       TEXT    NOT NULL,
  node_count  INTEGER NOT NULL,
  tasks       INTEGER NOT NULL,
  cpus        INTEGER NOT NULL,
  state       INTEGER NOT NULL,
  start_time  INTEGER NOT NULL,
  end_time    INTEGER NOT NULL,
  exit_status INTEGER NOT NULL,
  exit_signal INTEGER NOT NULL,
  user_cpu_us INTEGER NOT NULL,
  sys_cpu_us  INTEGER NOT NULL,
  max_rss_kb  INTEGER NOT NULL,
  PRIMARY KEY (job_id, attempt, step_id)
) WITHOUT ROWID;
)sql",
      // 6: the registry of runs that execute on a real Slurm cluster:
      // they are no jobs of stintd. A run's name is its key; what a query
      // filters on is a column, the rest (request, nodes) is JSON.
      R"sql(
CREATE TABLE cluster_runs (
  project        TEXT    NOT NULL,
  number         INTEGER NOT NULL,
  backend        TEXT    NOT NULL,
  cluster_job_id INTEGER NOT NULL,
  user_id        INTEGER NOT NULL,
  state          INTEGER NOT NULL,
  live           INTEGER NOT NULL,
  record         TEXT    NOT NULL,
  PRIMARY KEY (project, number)
) WITHOUT ROWID;
CREATE INDEX cluster_runs_live ON cluster_runs (live);
)sql",
      // 7: projects (run-project) and deleted runs (run-delete). A project is
      // made by run-project create or by its first run; the projects runs
      // already name get a row, owned by the user of their first run. A
      // deleted run keeps its job (sacct, fair share and the run numbers
      // still count it); the run tools no longer show it.
      R"sql(
CREATE TABLE projects (
  name        TEXT    PRIMARY KEY,
  owner_id    INTEGER NOT NULL,
  owner_name  TEXT    NOT NULL,
  description TEXT    NOT NULL,
  created     INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO projects (name, owner_id, owner_name, description, created)
  SELECT project, user_id, user_name, '', MIN(submit_time) FROM (
    SELECT json_extract(spec, '$.run.project') AS project, user_id, user_name, submit_time
      FROM jobs WHERE json_extract(spec, '$.run.project') IS NOT NULL
    UNION ALL
    SELECT project, user_id, json_extract(record, '$.user_name'),
           json_extract(record, '$.submit_time') FROM cluster_runs)
  GROUP BY project;
CREATE TABLE deleted_runs (
  project    TEXT    NOT NULL,
  number     INTEGER NOT NULL,
  deleted_by INTEGER NOT NULL,
  deleted_at INTEGER NOT NULL,
  PRIMARY KEY (project, number)
) WITHOUT ROWID;
)sql",
      // 8: the associations jobs name, kept as jobs are written (Store::
      // job_associations for sprio, sshare and stintd's fair share), not
      // found by reading every row of the table (150 ms of sprio's 500 at
      // 100,000 jobs); an index on the jobs would have made every insert
      // pay for it.
      R"sql(
CREATE TABLE job_associations (
  user_name TEXT NOT NULL,
  account   TEXT NOT NULL,
  PRIMARY KEY (user_name, account)
) WITHOUT ROWID;
INSERT OR IGNORE INTO job_associations (user_name, account)
  SELECT DISTINCT user_name, account FROM jobs;
)sql",
      // 9: the request and spec an array's tasks were submitted with, kept
      // once: a task's row holds '{}' in their place while its own are the
      // same (store/job_rows.cpp, k_shared_text). They were 400 of a task row's 590
      // bytes, written 10,000 times for an array. Never changed after the
      // submission, so a task changed alone (scontrol update) keeps its own.
      R"sql(
CREATE TABLE array_texts (
  array_job_id INTEGER PRIMARY KEY,
  request      TEXT NOT NULL,
  spec         TEXT NOT NULL
);
)sql",
      // 10: advance reservations (scontrol create reservation), one row per
      // reservation: its name, and the rest as JSON (store/reservations.cpp).
      // The next reservation id (Slurm's top_suffix) is in meta.
      R"sql(
CREATE TABLE reservations (
  name   TEXT PRIMARY KEY,
  record TEXT NOT NULL
) WITHOUT ROWID;
INSERT OR REPLACE INTO meta (key, value) VALUES ('next_resv_id', '1');
)sql",
      // 11: heterogeneous jobs: each component is a job; these tie it to its
      // leader (Job::het_job_id, het_job_offset).
      R"sql(
ALTER TABLE jobs ADD COLUMN het_job_id     INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN het_job_offset INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN het_job_size   INTEGER NOT NULL DEFAULT 0;
)sql",
      // 12: a step's own time limit (srun -t inside an allocation), in
      // seconds; -1 for none.
      R"sql(
ALTER TABLE steps ADD COLUMN time_limit INTEGER NOT NULL DEFAULT -1;
)sql",
      // 13: node features set by scontrol update (Config::node_features),
      // comma-separated; an array task split off its array's record.
      R"sql(
ALTER TABLE jobs ADD COLUMN array_split INTEGER NOT NULL DEFAULT 0;
CREATE TABLE node_features (
  name     TEXT PRIMARY KEY,
  features TEXT NOT NULL
) WITHOUT ROWID;
)sql",
      // 14: a run's variables keep their names only (store/job_rows.cpp,
      // drop_private_values): their values, which may be tokens, were readable
      // by every local user here. scripts.db keeps them in the job's
      // environment. Store::open then scrubs the pages the old texts were in.
      R"sql(
UPDATE jobs SET spec = json_set(spec, '$.run.env', json((
  SELECT json_group_array(json_array(json_extract(e.value, '$[0]'), ''))
  FROM json_each(jobs.spec, '$.run.env') AS e)))
WHERE json_type(spec, '$.run.env') = 'array' AND json_array_length(spec, '$.run.env') > 0;
UPDATE array_texts SET spec = json_set(spec, '$.run.env', json((
  SELECT json_group_array(json_array(json_extract(e.value, '$[0]'), ''))
  FROM json_each(array_texts.spec, '$.run.env') AS e)))
WHERE json_type(spec, '$.run.env') = 'array' AND json_array_length(spec, '$.run.env') > 0;
UPDATE cluster_runs SET record = json_set(record, '$.spec.run.env', json((
  SELECT json_group_array(json_array(json_extract(e.value, '$[0]'), ''))
  FROM json_each(cluster_runs.record, '$.spec.run.env') AS e)))
WHERE json_type(record, '$.spec.run.env') = 'array'
  AND json_array_length(record, '$.spec.run.env') > 0;
)sql",
      // 15: the tokens of submissions (Store::Submission), by user, so that a
      // submission sent again after a lost answer is made once.
      R"sql(
CREATE TABLE submissions (
  user_id INTEGER NOT NULL,
  token   TEXT    NOT NULL,
  job_id  INTEGER NOT NULL,
  run     TEXT    NOT NULL,
  made    INTEGER NOT NULL,
  PRIMARY KEY (user_id, token)
) WITHOUT ROWID;
CREATE INDEX submissions_by_time ON submissions (made);
)sql",
      // 16: sbatch --export's values leave stint.db as the runs' did in 14
      // (drop_private_values: NAME=VALUE becomes NAME=***); scripts.db keeps
      // them in the job's environment. stint_export_names is registered by
      // Store::open, which scrubs the old pages afterwards.
      R"sql(
UPDATE jobs SET spec = json_set(spec, '$.export_spec',
                                stint_export_names(json_extract(spec, '$.export_spec')))
WHERE instr(json_extract(spec, '$.export_spec'), '=') > 0;
UPDATE array_texts SET spec = json_set(spec, '$.export_spec',
                                       stint_export_names(json_extract(spec, '$.export_spec')))
WHERE instr(json_extract(spec, '$.export_spec'), '=') > 0;
UPDATE cluster_runs SET record = json_set(record, '$.spec.export_spec',
    stint_export_names(json_extract(record, '$.spec.export_spec')))
WHERE instr(json_extract(record, '$.spec.export_spec'), '=') > 0;
)sql",
      // 17: an array's tasks that have not started are one row, the array's
      // record (Job::array_pending): array_tasks holds their ids ("0-9999").
      // A database with pending tasks of its own rows keeps the lowest of
      // them as the record, holding every task that has not started, not
      // been requeued, held or changed alone (those stay rows of their own,
      // marked split); the others' rows go. group_concat's list ("3,1,2") is
      // read as runs and written back as such with the record's next change.
      R"sql(
ALTER TABLE jobs ADD COLUMN array_tasks TEXT NOT NULL DEFAULT '';
CREATE TEMP TABLE array_folds AS
  SELECT array_job_id AS array_id, MIN(id) AS record, group_concat(array_task_id) AS tasks
    FROM jobs
   WHERE array_job_id != 0 AND state = 0 AND array_split = 0 AND restart_count = 0
     AND hold_reason = 0 AND het_job_id = 0
   GROUP BY array_job_id;
UPDATE jobs SET array_split = 1
 WHERE array_job_id != 0 AND state = 0 AND array_split = 0 AND restart_count != 0 OR
       array_job_id != 0 AND state = 0 AND array_split = 0 AND hold_reason != 0;
DELETE FROM jobs
 WHERE array_job_id IN (SELECT array_id FROM array_folds)
   AND state = 0 AND array_split = 0 AND id NOT IN (SELECT record FROM array_folds);
UPDATE jobs SET array_task_id = 4294967294,
                array_tasks = (SELECT tasks FROM array_folds WHERE record = jobs.id)
 WHERE id IN (SELECT record FROM array_folds);
DROP TABLE array_folds;
)sql",
      // 18: what a reason alone does not say (Job::state_desc): a launch's
      // failure, why stintd ended a kept-alive run.
      R"sql(
ALTER TABLE jobs ADD COLUMN state_desc TEXT NOT NULL DEFAULT '';
)sql",
  };
  return k_migrations;
}

}  // namespace stint::store_schema
