// Job mail as slurmctld writes it: subject lines, recipient, MailProg's
// variables; the types a job asked for.

#include "daemon/mail.hpp"

#include <catch2/catch.hpp>

using namespace stint;
using daemon::MailType;

namespace {

std::string value_of(const daemon::Environment& env, const std::string& key) {
  for (const auto& [k, v] : env) {
    if (k == key) return v;
  }
  return "(unset)";
}

Job ended_job() {
  Job j;
  j.id = 12;
  j.spec.name = "x";
  j.user_name = "alice";
  j.user_id = 1000;
  j.group_id = 1000;
  j.partition = "debug";
  j.account = "lab";
  j.submit_time = 1000;
  j.start_time = 1001;
  j.end_time = 1063;
  j.state = JobState::completed;
  NodeAlloc a;
  a.node = "n-1";
  a.cpus = 2;
  j.alloc = {a};
  return j;
}

}  // namespace

TEST_CASE("mail types: Slurm's words, ALL, NONE") {
  using daemon::has;
  using daemon::mail_types;
  const auto m = mail_types("BEGIN,END,TIME_LIMIT_50");
  CHECK(has(m, MailType::begin));
  CHECK(has(m, MailType::end));
  CHECK(has(m, MailType::time50));
  CHECK_FALSE(has(m, MailType::fail));
  const auto all = mail_types("ALL");
  CHECK(has(all, MailType::fail));
  CHECK(has(all, MailType::requeue));
  CHECK(has(all, MailType::invalid_depend));
  CHECK_FALSE(has(all, MailType::time50));
  CHECK_FALSE(has(all, MailType::array_tasks));
  CHECK(mail_types("NONE") == 0);
  Job j;
  CHECK(mail_types(j) == 0);
}

TEST_CASE("mail: slurmctld's subject lines for a job") {
  Config c;
  Job j = ended_job();
  CHECK(daemon::job_mail(j, MailType::begin, c, 2000).subject ==
        "Slurm Job_id=12 Name=x Began, Queued time 00:00:01");
  CHECK(daemon::job_mail(j, MailType::end, c, 2000).subject ==
        "Slurm Job_id=12 Name=x Ended, Run time 00:01:02, COMPLETED, ExitCode 0");
  j.state = JobState::failed;
  j.exit_status = 1;
  CHECK(daemon::job_mail(j, MailType::fail, c, 2000).subject ==
        "Slurm Job_id=12 Name=x Failed, Run time 00:01:02, FAILED, ExitCode 1");
  // Killed by a signal: no exit code.
  j.state = JobState::cancelled;
  j.exit_status = 0;
  j.exit_signal = 15;
  CHECK(daemon::job_mail(j, MailType::end, c, 2000).subject ==
        "Slurm Job_id=12 Name=x Ended, Run time 00:01:02, CANCELLED");
  j.state = JobState::running;
  CHECK(daemon::job_mail(j, MailType::time50, c, 1031).subject ==
        "Slurm Job_id=12 Name=x Reached 50% of time limit, Run time 00:00:30");
  CHECK(daemon::job_mail(j, MailType::time100, c, 1001 + 86400 + 3661).subject ==
        "Slurm Job_id=12 Name=x Reached time limit, Run time 1-01:01:01");
  CHECK(daemon::job_mail(j, MailType::invalid_depend, c, 2000).subject ==
        "Slurm Job_id=12 Name=x Invalid dependency");
  j.state = JobState::requeued;
  CHECK(daemon::job_mail(j, MailType::requeue, c, 2000).subject ==
        "Slurm Job_id=12 Name=x Requeued, Run time 00:01:02");
}

TEST_CASE("mail: an array task, and an array's summary") {
  Config c;
  Job j = ended_job();
  j.id = 15;
  j.array_job_id = 12;
  j.array_task_id = 3;
  CHECK(daemon::job_mail(j, MailType::end, c, 2000).subject ==
        "Slurm Array Task Job_id=12_3 (15) Name=x Ended, Run time 00:01:02, COMPLETED, ExitCode 0");
  Job meta = ended_job();
  meta.array_job_id = 12;
  meta.array_task_id = 0;
  daemon::ArrayOutcome all_ok;
  CHECK(daemon::job_mail(meta, MailType::begin, c, 2000, &all_ok).subject ==
        "Slurm Array Summary Job_id=12_* (12) Name=x Began");
  CHECK(daemon::job_mail(meta, MailType::end, c, 2000, &all_ok).subject ==
        "Slurm Array Summary Job_id=12_* (12) Name=x Ended, COMPLETED, ExitCode [0-0]");
  daemon::ArrayOutcome mixed{0, 2 << 8, true};
  const daemon::Mail m = daemon::job_mail(meta, MailType::fail, c, 2000, &mixed);
  CHECK(m.subject ==
        "Slurm Array Summary Job_id=12_* (12) Name=x Failed, Mixed, ExitCode [0-2], with requeued "
        "tasks");
  CHECK(value_of(m.env, "SLURM_JOB_EXIT_CODE_MIN") == "0");
  CHECK(value_of(m.env, "SLURM_JOB_EXIT_CODE_MAX") == "2");
  daemon::ArrayOutcome signalled{9, 1 << 8, false};
  CHECK(daemon::job_mail(meta, MailType::end, c, 2000, &signalled).subject ==
        "Slurm Array Summary Job_id=12_* (12) Name=x Ended, Mixed, MaxExitCode [1]");
  daemon::ArrayOutcome killed{0, 9, false};
  CHECK(daemon::job_mail(meta, MailType::end, c, 2000, &killed).subject ==
        "Slurm Array Summary Job_id=12_* (12) Name=x Ended, Mixed, MaxSignal [9]");
}

TEST_CASE("mail: recipient and MailProg's variables") {
  Config c;
  c.cluster_name = "lab";
  Job j = ended_job();
  daemon::Mail m = daemon::job_mail(j, MailType::end, c, 2000);
  CHECK(m.recipient == "alice");
  c.slurm_conf["MailDomain"] = "example.org";
  CHECK(daemon::job_mail(j, MailType::end, c, 2000).recipient == "alice@example.org");
  j.spec.options_to_set().mail_user = "bob@elsewhere";
  CHECK(daemon::job_mail(j, MailType::end, c, 2000).recipient == "bob@elsewhere");
  CHECK(value_of(m.env, "SLURM_JOB_ID") == "12");
  CHECK(value_of(m.env, "SLURM_JOBID") == "12");
  CHECK(value_of(m.env, "SLURM_JOB_NAME") == "x");
  CHECK(value_of(m.env, "SLURM_JOB_USER") == "alice");
  CHECK(value_of(m.env, "SLURM_JOB_UID") == "1000");
  CHECK(value_of(m.env, "SLURM_JOB_ACCOUNT") == "lab");
  CHECK(value_of(m.env, "SLURM_JOB_PARTITION") == "debug");
  CHECK(value_of(m.env, "SLURM_CLUSTER_NAME") == "lab");
  CHECK(value_of(m.env, "SLURM_JOB_NODELIST") == "n-1");
  CHECK(value_of(m.env, "SLURM_JOB_CPUS_PER_NODE") == "2");
  CHECK(value_of(m.env, "SLURM_JOB_STATE") == "COMPLETED");
  CHECK(value_of(m.env, "SLURM_JOB_MAIL_TYPE") == "Ended");
  CHECK(value_of(m.env, "SLURM_JOB_RUN_TIME") == "00:01:02");
  CHECK(value_of(m.env, "SLURM_JOB_EXIT_CODE") == "0");
  CHECK(value_of(m.env, "SLURM_JOB_EXIT_CODE2") == "0:0");
  CHECK(value_of(m.env, "SLURM_JOB_EXIT_CODE_MAX") == "0");
  CHECK(value_of(m.env, "PATH") == "(unset)");
  // A job that never ran has no nodes.
  Job pending = ended_job();
  pending.alloc.clear();
  const daemon::Mail p = daemon::job_mail(pending, MailType::begin, c, 2000);
  CHECK(value_of(p.env, "SLURM_JOB_NODELIST") == "(null)");
  CHECK(value_of(p.env, "SLURM_JOB_NUM_NODES") == "(unset)");
  CHECK(value_of(p.env, "SLURM_JOB_QUEUED_TIME") == "00:00:01");
}
