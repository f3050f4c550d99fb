// What a job mail says: slurmctld's subject lines (agent.c mail_job_info,
// _set_job_time, _set_job_term_info) and MailProg's environment
// (job_mgr.c job_common_env_vars, agent.c _build_mail_env).

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/core.h>
#include <grp.h>

#include <stint/parse.hpp>
#include <stint/run.hpp>

#include "daemon/mail.hpp"
#include "run/idle.hpp"

namespace stint::daemon {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::string group_name(std::uint32_t gid) {
  std::vector<char> buf(4096);
  group g{};
  group* found = nullptr;
  if (::getgrgid_r(gid, &g, buf.data(), buf.size(), &found) == 0 && found) return g.gr_name;
  return std::to_string(gid);
}

// slurm's secs2time_str: "HH:MM:SS", "D-HH:MM:SS".
std::string secs_text(Seconds s) {
  if (s < 0) return "INVALID";
  const Seconds days = s / 86400;
  if (days > 0)
    return fmt::format("{}-{:02}:{:02}:{:02}", days, (s / 3600) % 24, (s / 60) % 60, s % 60);
  return fmt::format("{:02}:{:02}:{:02}", (s / 3600) % 24, (s / 60) % 60, s % 60);
}

// Slurm's uint32_compressed_to_str over the CPUs of each node: "4", "2(x3),1".
std::string cpus_per_node(const Job& job) {
  std::string out;
  std::size_t i = 0;
  while (i < job.alloc.size()) {
    std::size_t j = i;
    while (j < job.alloc.size() && job.alloc[j].cpus == job.alloc[i].cpus) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(job.alloc[i].cpus);
    if (j - i > 1) out += fmt::format("(x{})", j - i);
    i = j;
  }
  return out;
}

bool exited(int status) { return (status & 0x7f) == 0; }
int exit_code(int status) { return (status >> 8) & 0xff; }
int term_signal(int status) { return status & 0x7f; }

// job_state_string of the job's base state. A requeued attempt is, to
// slurmctld, a job back in PENDING with the REQUEUE flag.
std::string_view base_state(const Job& job) {
  return job.state == JobState::requeued ? std::string_view("PENDING") : state_name(job.state);
}

}  // namespace

std::uint16_t mail_types(std::string_view list) {
  std::uint16_t mask = 0;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    const std::string_view word = list.substr(start, end - start);
    start = end + 1;
    if (iequals(word, "NONE")) return 0;
    if (iequals(word, "ARRAY_TASKS")) mask |= bit(MailType::array_tasks);
    if (iequals(word, "BEGIN")) mask |= bit(MailType::begin);
    if (iequals(word, "END")) mask |= bit(MailType::end);
    if (iequals(word, "FAIL")) mask |= bit(MailType::fail);
    if (iequals(word, "INVALID_DEPEND")) mask |= bit(MailType::invalid_depend);
    if (iequals(word, "REQUEUE")) mask |= bit(MailType::requeue);
    if (iequals(word, "ALL"))
      mask |= bit(MailType::invalid_depend) | bit(MailType::begin) | bit(MailType::end) |
              bit(MailType::fail) | bit(MailType::requeue) | bit(MailType::stage_out);
    if (iequals(word, "STAGE_OUT")) mask |= bit(MailType::stage_out);
    if (iequals(word, "TIME_LIMIT")) mask |= bit(MailType::time100);
    if (iequals(word, "TIME_LIMIT_90")) mask |= bit(MailType::time90);
    if (iequals(word, "TIME_LIMIT_80")) mask |= bit(MailType::time80);
    if (iequals(word, "TIME_LIMIT_50")) mask |= bit(MailType::time50);
  }
  return mask;
}

std::uint16_t mail_types(const Job& job) {
  const std::string& list = job.spec.options().mail_type;
  return list.empty() ? 0 : mail_types(list);
}

std::string_view mail_type_text(MailType t) {
  switch (t) {
    case MailType::invalid_depend:
      return "Invalid dependency";
    case MailType::idle:
      return "Idle";
    case MailType::begin:
      return "Began";
    case MailType::end:
      return "Ended";
    case MailType::fail:
      return "Failed";
    case MailType::requeue:
      return "Requeued";
    case MailType::stage_out:
      return "StageOut/Teardown";
    case MailType::time100:
      return "Reached time limit";
    case MailType::time90:
      return "Reached 90% of time limit";
    case MailType::time80:
      return "Reached 80% of time limit";
    case MailType::time50:
      return "Reached 50% of time limit";
    case MailType::array_tasks:
      break;
  }
  return "unknown";
}

std::string mail_recipient(const Job& job, const Config& config) {
  const std::string& given = job.spec.options().mail_user;
  if (!given.empty()) return given;
  const std::string domain = config.conf("MailDomain").value_or("");
  return domain.empty() ? job.user_name : job.user_name + "@" + domain;
}

int wait_status(const Job& job) {
  if (job.exit_signal != 0) return job.exit_signal & 0x7f;
  return (job.exit_status & 0xff) << 8;
}

Mail job_mail(const Job& job, MailType type, const Config& config, Seconds now,
              const ArrayOutcome* array) {
  Mail m;
  m.recipient = mail_recipient(job, config);
  m.job_id = job.id;
  m.uid = job.user_id;
  m.gid = job.group_id;
  Environment& env = m.env;
  auto set = [&env](std::string name, std::string value) {
    env.emplace_back(std::move(name), std::move(value));
  };
  const JobOptions& o = job.spec.options();
  const bool complete = type == MailType::end || type == MailType::fail;
  const int status = wait_status(job);

  // job_common_env_vars, in its order.
  set("SLURM_JOB_ACCOUNT", job.account);
  if (complete) {
    // A step's exit codes are not kept on the job here: its own stand for them.
    set("SLURM_JOB_DERIVED_EC", "0");
    set("SLURM_JOB_EXIT_CODE2", fmt::format("{}:{}", exited(status) ? exit_code(status) : 0,
                                            exited(status) ? 0 : term_signal(status)));
    set("SLURM_JOB_EXIT_CODE", std::to_string(status));
  }
  if (job.is_array_task()) {
    set("SLURM_ARRAY_JOB_ID", std::to_string(job.array_job_id));
    set("SLURM_ARRAY_TASK_ID", std::to_string(job.array_task_id));
  }
  set("SLURM_CLUSTER_NAME", config.cluster_name);
  if (!job.spec.comment.empty()) set("SLURM_JOB_COMMENT", job.spec.comment);
  set("SLURM_JOB_GID", std::to_string(job.group_id));
  set("SLURM_JOB_GROUP", group_name(job.group_id));
  set("SLURM_JOBID", std::to_string(job.id));
  set("SLURM_JOB_ID", std::to_string(job.id));
  if (!o.licenses.empty()) set("SLURM_JOB_LICENSES", o.licenses);
  set("SLURM_JOB_NAME", job.spec.name);
  // printf's "%s" of a job that never had nodes.
  set("SLURM_JOB_NODELIST",
      job.alloc.empty() ? std::string("(null)") : parse::compress_hostlist(job.node_names()));
  if (!job.alloc.empty()) {
    set("SLURM_JOB_CPUS_PER_NODE", cpus_per_node(job));
    set("SLURM_JOB_NUM_NODES", std::to_string(job.alloc.size()));
  }
  set("SLURM_JOB_PARTITION", job.partition);
  if (!o.reservation.empty()) set("SLURM_JOB_RESERVATION", o.reservation);
  set("SLURM_JOB_RESTART_COUNT", std::to_string(job.restart_count));
  set("SLURM_JOB_UID", std::to_string(job.user_id));
  set("SLURM_JOB_USER", job.user_name);
  if (!o.wckey.empty()) set("SLURM_WCKEY", o.wckey);
  if (!o.constraint.empty()) set("SLURM_JOB_CONSTRAINTS", o.constraint);
  if (!job.spec.stderr_pattern.empty()) set("SLURM_JOB_STDERR", job.spec.stderr_pattern);
  if (!o.stdin_pattern.empty()) set("SLURM_JOB_STDIN", o.stdin_pattern);
  if (!job.spec.stdout_pattern.empty()) set("SLURM_JOB_STDOUT", job.spec.stdout_pattern);
  set("SLURM_JOB_WORK_DIR", work_dir(job));
  // _build_mail_env.
  set("SLURM_JOB_STATE", std::string(base_state(job)));
  set("SLURM_JOB_MAIL_TYPE", std::string(mail_type_text(type)));

  // _set_job_time: how long it waited or ran.
  // k_no_time is 0: a start after the epoch is one that happened.
  const bool started = job.start_time > k_no_time;
  std::string job_time;
  if (type == MailType::begin) {
    if (started && job.submit_time > k_no_time) {
      const std::string queued = secs_text(job.start_time - job.submit_time);
      job_time = ", Queued time " + queued;
      set("SLURM_JOB_QUEUED_TIME", queued);
    }
  } else if (type == MailType::end || type == MailType::fail || type == MailType::requeue) {
    if (started && job.end_time > k_no_time) {
      const std::string ran = secs_text(job.end_time - job.start_time);
      job_time = ", Run time " + ran;
      set("SLURM_JOB_RUN_TIME", ran);
    }
  } else if (type == MailType::time100 || type == MailType::time90 || type == MailType::time80 ||
             type == MailType::time50 || type == MailType::idle) {
    if (started) {
      const std::string ran = secs_text(now - job.start_time);
      job_time = ", Run time " + ran;
      set("SLURM_JOB_RUN_TIME", ran);
    }
  }

  // _set_job_term_info: how it ended.
  std::string term;
  if (complete && array) {
    const int lo = array->min_status;
    const int hi = array->max_status;
    if (exited(lo) && exited(hi)) {
      const bool mixed = exit_code(lo) == 0 && exit_code(hi) > 0;
      term = fmt::format(", {}, ExitCode [{}-{}]", mixed ? "Mixed" : base_state(job), exit_code(lo),
                         exit_code(hi));
      set("SLURM_JOB_EXIT_CODE_MIN", std::to_string(exit_code(lo)));
      set("SLURM_JOB_EXIT_CODE_MAX", std::to_string(exit_code(hi)));
    } else if (!exited(hi)) {
      term = fmt::format(", Mixed, MaxSignal [{}]", term_signal(hi));
      set("SLURM_JOB_TERM_SIGNAL_MAX", std::to_string(term_signal(hi)));
    } else {
      term = fmt::format(", Mixed, MaxExitCode [{}]", exit_code(hi));
      set("SLURM_JOB_EXIT_CODE_MAX", std::to_string(exit_code(hi)));
    }
    if (array->requeued) term += ", with requeued tasks";
  } else if (complete) {
    if (exited(status)) {
      term = fmt::format(", {}, ExitCode {}", base_state(job), exit_code(status));
      set("SLURM_JOB_EXIT_CODE_MAX", std::to_string(exit_code(status)));
    } else {
      term = fmt::format(", {}", base_state(job));
      set("SLURM_JOB_EXIT_CODE_MAX", "0");
    }
  }

  // An idle run: how long, and measured on what.
  if (type == MailType::idle && run::is_idle(job)) {
    const Seconds since = run::idle_since(job);
    const bool gpus = run::idle_on_gpus(job);
    term = fmt::format(", {} for {}", gpus ? "GPUs at 0%" : "no CPU time used",
                       secs_text(std::max<Seconds>(now - since, 0)));
    set("STINT_IDLE_SINCE", parse::format_timestamp(since));
    set("STINT_IDLE_ON", gpus ? "GPUs" : "CPUs");
  }
  if (job.spec.run) set("STINT_RUN", RunName{job.spec.run->project, job.spec.run->number}.text());

  const std::string_view what = mail_type_text(type);
  if (array) {
    m.subject = fmt::format("Slurm Array Summary Job_id={}_* ({}) Name={} {}{}",
                            job.is_array_task() ? job.array_job_id : job.id, job.id, job.spec.name,
                            what, term);
  } else if (job.is_array_task()) {
    m.subject = fmt::format("Slurm Array Task Job_id={}_{} ({}) Name={} {}{}{}", job.array_job_id,
                            job.array_task_id, job.id, job.spec.name, what, job_time, term);
  } else {
    m.subject =
        fmt::format("Slurm Job_id={} Name={} {}{}{}", job.id, job.spec.name, what, job_time, term);
  }
  return m;
}

}  // namespace stint::daemon
