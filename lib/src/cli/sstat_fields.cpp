#include "cli/sstat_fields.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <optional>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

namespace stint::cli::sstat {
namespace {

enum class Kind : std::uint8_t {
  str,  ///< print_fields_str: cut to the width with a '+'
  num   ///< print_fields_uint: never cut
};

enum class Col : std::uint8_t {
  ave_cpu,
  ave_cpu_freq,
  ave_disk_read,
  ave_disk_write,
  ave_pages,
  ave_rss,
  ave_vmsize,
  consumed_energy,
  consumed_energy_raw,
  job_id,
  max_disk_read,
  max_disk_read_node,
  max_disk_read_task,
  max_disk_write,
  max_disk_write_node,
  max_disk_write_task,
  max_pages,
  max_pages_node,
  max_pages_task,
  max_rss,
  max_rss_node,
  max_rss_task,
  max_vmsize,
  max_vmsize_node,
  max_vmsize_task,
  min_cpu,
  min_cpu_node,
  min_cpu_task,
  nodelist,
  ntasks,
  pids,
  req_cpu_freq_min,
  req_cpu_freq_max,
  req_cpu_freq_gov,
  tres_in_ave,
  tres_in_max,
  tres_in_max_node,
  tres_in_max_task,
  tres_in_min,
  tres_in_min_node,
  tres_in_min_task,
  tres_in_tot,
  tres_out_ave,
  tres_out_max,
  tres_out_max_node,
  tres_out_max_task,
  tres_out_min,
  tres_out_min_node,
  tres_out_min_task,
  tres_out_tot
};

struct Column {
  int width;
  std::string_view name;
  Kind kind;
  Col col;
};

// Slurm 22.05's sstat.c fields[], in its order (prefixes match the first).
// clang-format off
constexpr std::array k_columns{
    Column{10, "AveCPU", Kind::str, Col::ave_cpu},
    Column{10, "AveCPUFreq", Kind::str, Col::ave_cpu_freq},
    Column{12, "AveDiskRead", Kind::str, Col::ave_disk_read},
    Column{12, "AveDiskWrite", Kind::str, Col::ave_disk_write},
    Column{10, "AvePages", Kind::str, Col::ave_pages},
    Column{10, "AveRSS", Kind::str, Col::ave_rss},
    Column{10, "AveVMSize", Kind::str, Col::ave_vmsize},
    Column{14, "ConsumedEnergy", Kind::str, Col::consumed_energy},
    Column{17, "ConsumedEnergyRaw", Kind::num, Col::consumed_energy_raw},
    Column{-12, "JobID", Kind::str, Col::job_id},
    Column{12, "MaxDiskRead", Kind::str, Col::max_disk_read},
    Column{15, "MaxDiskReadNode", Kind::str, Col::max_disk_read_node},
    Column{15, "MaxDiskReadTask", Kind::num, Col::max_disk_read_task},
    Column{12, "MaxDiskWrite", Kind::str, Col::max_disk_write},
    Column{16, "MaxDiskWriteNode", Kind::str, Col::max_disk_write_node},
    Column{16, "MaxDiskWriteTask", Kind::num, Col::max_disk_write_task},
    Column{8, "MaxPages", Kind::str, Col::max_pages},
    Column{12, "MaxPagesNode", Kind::str, Col::max_pages_node},
    Column{14, "MaxPagesTask", Kind::num, Col::max_pages_task},
    Column{10, "MaxRSS", Kind::str, Col::max_rss},
    Column{10, "MaxRSSNode", Kind::str, Col::max_rss_node},
    Column{10, "MaxRSSTask", Kind::num, Col::max_rss_task},
    Column{10, "MaxVMSize", Kind::str, Col::max_vmsize},
    Column{14, "MaxVMSizeNode", Kind::str, Col::max_vmsize_node},
    Column{14, "MaxVMSizeTask", Kind::num, Col::max_vmsize_task},
    Column{10, "MinCPU", Kind::str, Col::min_cpu},
    Column{10, "MinCPUNode", Kind::str, Col::min_cpu_node},
    Column{10, "MinCPUTask", Kind::num, Col::min_cpu_task},
    Column{20, "Nodelist", Kind::str, Col::nodelist},
    Column{8, "NTasks", Kind::num, Col::ntasks},
    Column{20, "Pids", Kind::str, Col::pids},
    Column{10, "ReqCPUFreq", Kind::str, Col::req_cpu_freq_min},  // vestigial in Slurm
    Column{13, "ReqCPUFreqMin", Kind::str, Col::req_cpu_freq_min},
    Column{13, "ReqCPUFreqMax", Kind::str, Col::req_cpu_freq_max},
    Column{13, "ReqCPUFreqGov", Kind::str, Col::req_cpu_freq_gov},
    Column{14, "TRESUsageInAve", Kind::str, Col::tres_in_ave},
    Column{14, "TRESUsageInMax", Kind::str, Col::tres_in_max},
    Column{18, "TRESUsageInMaxNode", Kind::str, Col::tres_in_max_node},
    Column{18, "TRESUsageInMaxTask", Kind::str, Col::tres_in_max_task},
    Column{14, "TRESUsageInMin", Kind::str, Col::tres_in_min},
    Column{18, "TRESUsageInMinNode", Kind::str, Col::tres_in_min_node},
    Column{18, "TRESUsageInMinTask", Kind::str, Col::tres_in_min_task},
    Column{14, "TRESUsageInTot", Kind::str, Col::tres_in_tot},
    Column{15, "TRESUsageOutAve", Kind::str, Col::tres_out_ave},
    Column{15, "TRESUsageOutMax", Kind::str, Col::tres_out_max},
    Column{19, "TRESUsageOutMaxNode", Kind::str, Col::tres_out_max_node},
    Column{19, "TRESUsageOutMaxTask", Kind::str, Col::tres_out_max_task},
    Column{15, "TRESUsageOutMin", Kind::str, Col::tres_out_min},
    Column{19, "TRESUsageOutMinNode", Kind::str, Col::tres_out_min_node},
    Column{19, "TRESUsageOutMinTask", Kind::str, Col::tres_out_min_task},
    Column{15, "TRESUsageOutTot", Kind::str, Col::tres_out_tot},
};
// clang-format on

bool iequals_prefix(std::string_view name, std::string_view prefix) {
  if (prefix.size() > name.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  }
  return true;
}

std::size_t at(Tres t) { return static_cast<std::size_t>(t); }

/// CPU time kept in milliseconds, as Slurm prints it: whole seconds, "HH:MM:SS".
std::string cpu_text(std::uint64_t ms) {
  return parse::format_duration_fixed(static_cast<Seconds>(ms / 1000));
}

/// print.c's _print_small_double, for the disk figures.
std::string small_double(std::uint64_t value, bool convert) {
  if (value > 1) return convert_units(static_cast<double>(value), 1024, false, convert);
  if (value > 0) return fmt::format("{:.2f}M", static_cast<double>(value));
  return "0";
}

enum class TresForm : std::uint8_t { usage, node, task };

/// A TRES string ("cpu=00:00:01,energy=0,mem=3272K"): usage figures in
/// units, node names, or task ids (raw, except that Slurm prints the cpu
/// task's id as a time too).
std::string tres_text(const TresValues* values, const TresNodes* nodes, TresForm form,
                      bool convert) {
  std::string out;
  for (std::size_t i = 0; i < k_tres_count; ++i) {
    std::string value;
    if (form == TresForm::node) {
      if (!(*nodes)[i]) continue;
      value = *(*nodes)[i];
    } else {
      if (!(*values)[i]) continue;
      const std::uint64_t v = *(*values)[i];
      if (i == at(Tres::cpu))
        value = cpu_text(v);
      else if (form == TresForm::task)
        value = std::to_string(v);
      else
        value = convert_units(static_cast<double>(v), 1024, false, convert);
    }
    if (!out.empty()) out += ',';
    out += fmt::format("{}={}", tres_name(static_cast<Tres>(i)), value);
  }
  return out;
}

std::string opt_number(const std::optional<std::uint64_t>& v) {
  return v ? std::to_string(*v) : std::string();
}
std::string opt_units(const std::optional<std::uint64_t>& v, bool convert) {
  return v ? convert_units(static_cast<double>(*v), 1024, false, convert) : std::string();
}
std::string opt_disk(const std::optional<std::uint64_t>& v, bool convert) {
  return v ? small_double(*v, convert) : std::string();
}
std::string opt_cpu(const std::optional<std::uint64_t>& v) {
  return v ? cpu_text(*v) : std::string();
}
std::string opt_node(const std::optional<std::string>& v) { return v.value_or(""); }

std::string usage_value(Col col, const StepUsage& u, bool convert) {
  const std::size_t cpu = at(Tres::cpu), disk = at(Tres::fs_disk), mem = at(Tres::mem),
                    pages = at(Tres::pages), vmem = at(Tres::vmem);
  switch (col) {
    case Col::ave_cpu:
      return opt_cpu(u.in_ave[cpu]);
    case Col::ave_cpu_freq:
      // MHz, so from the kilo unit (Slurm prints 2793 MHz as "2.79M").
      return convert_units(u.cpu_mhz, 1000, true, convert, 1);
    case Col::ave_disk_read:
      return opt_disk(u.in_ave[disk], convert);
    case Col::ave_disk_write:
      return opt_disk(u.out_ave[disk], convert);
    case Col::ave_pages:
      return opt_units(u.in_ave[pages], convert);
    case Col::ave_rss:
      return opt_units(u.in_ave[mem], convert);
    case Col::ave_vmsize:
      return opt_units(u.in_ave[vmem], convert);
    case Col::max_disk_read:
      return opt_disk(u.in_max[disk], convert);
    case Col::max_disk_read_node:
      return opt_node(u.in_max_node[disk]);
    case Col::max_disk_read_task:
      return opt_number(u.in_max_task[disk]);
    case Col::max_disk_write:
      return opt_disk(u.out_max[disk], convert);
    case Col::max_disk_write_node:
      return opt_node(u.out_max_node[disk]);
    case Col::max_disk_write_task:
      return opt_number(u.out_max_task[disk]);
    case Col::max_pages:
      return opt_units(u.in_max[pages], convert);
    case Col::max_pages_node:
      return opt_node(u.in_max_node[pages]);
    case Col::max_pages_task:
      return opt_number(u.in_max_task[pages]);
    case Col::max_rss:
      return opt_units(u.in_max[mem], convert);
    case Col::max_rss_node:
      return opt_node(u.in_max_node[mem]);
    case Col::max_rss_task:
      return opt_number(u.in_max_task[mem]);
    case Col::max_vmsize:
      return opt_units(u.in_max[vmem], convert);
    case Col::max_vmsize_node:
      return opt_node(u.in_max_node[vmem]);
    case Col::max_vmsize_task:
      return opt_number(u.in_max_task[vmem]);
    case Col::min_cpu:
      return opt_cpu(u.in_min[cpu]);
    case Col::min_cpu_node:
      return opt_node(u.in_min_node[cpu]);
    case Col::min_cpu_task:
      return opt_number(u.in_min_task[cpu]);
    case Col::tres_in_ave:
      return tres_text(&u.in_ave, nullptr, TresForm::usage, convert);
    case Col::tres_in_max:
      return tres_text(&u.in_max, nullptr, TresForm::usage, convert);
    case Col::tres_in_max_node:
      return tres_text(nullptr, &u.in_max_node, TresForm::node, convert);
    case Col::tres_in_max_task:
      return tres_text(&u.in_max_task, nullptr, TresForm::task, convert);
    case Col::tres_in_min:
      return tres_text(&u.in_min, nullptr, TresForm::usage, convert);
    case Col::tres_in_min_node:
      return tres_text(nullptr, &u.in_min_node, TresForm::node, convert);
    case Col::tres_in_min_task:
      return tres_text(&u.in_min_task, nullptr, TresForm::task, convert);
    case Col::tres_in_tot:
      return tres_text(&u.in_tot, nullptr, TresForm::usage, convert);
    case Col::tres_out_ave:
      return tres_text(&u.out_ave, nullptr, TresForm::usage, convert);
    case Col::tres_out_max:
      return tres_text(&u.out_max, nullptr, TresForm::usage, convert);
    case Col::tres_out_max_node:
      return tres_text(nullptr, &u.out_max_node, TresForm::node, convert);
    case Col::tres_out_max_task:
      return tres_text(&u.out_max_task, nullptr, TresForm::task, convert);
    case Col::tres_out_min:
      return tres_text(&u.out_min, nullptr, TresForm::usage, convert);
    case Col::tres_out_min_node:
      return tres_text(nullptr, &u.out_min_node, TresForm::node, convert);
    case Col::tres_out_min_task:
      return tres_text(&u.out_min_task, nullptr, TresForm::task, convert);
    case Col::tres_out_tot:
      return tres_text(&u.out_tot, nullptr, TresForm::usage, convert);
    default:
      return {};
  }
}

std::string value(Col col, const StepLine& line, bool convert) {
  switch (col) {
    case Col::job_id:
      return line.id;
    case Col::nodelist:
      return line.nodes;
    case Col::pids:
      return line.pids;
    case Col::ntasks:
      return std::to_string(line.usage ? line.usage->tasks : 0);
    // No energy plugin: Slurm's figures without one.
    case Col::consumed_energy:
    case Col::consumed_energy_raw:
      return "0";
    case Col::req_cpu_freq_min:
    case Col::req_cpu_freq_max:
    case Col::req_cpu_freq_gov:
      // No --cpu-freq here: Slurm prints the batch step's as 0, others' Unknown.
      return line.batch ? "0" : "Unknown";
    default:
      return line.usage ? usage_value(col, *line.usage, convert) : std::string();
  }
}

/// print_fields' cell: right-aligned in the width (left for a negative
/// width), a string cut with '+', a number never cut; then a space.
std::string cell(const Output& o, const Field& f, std::string text, bool cut, bool last) {
  if (o.parsable != format::Parsable::no) {
    if (!(last && o.parsable == format::Parsable::no_trailing)) text += '|';
    return text;
  }
  const int width = std::abs(f.width);
  const auto w = static_cast<std::size_t>(width);
  if (cut && text.size() > w && w > 0) {
    text.resize(w);
    text[w - 1] = '+';
  }
  return format::pad(text, width, f.width < 0 ? format::Align::left : format::Align::right, false) +
         ' ';
}

}  // namespace

std::string convert_units(double value, int divisor, bool aggressive, bool convert,
                          int start_unit) {
  // Slurm's convert_num_unit2. sacct_memory is the same rule for amounts
  // that start in K or M; these start in bytes (or counts), and --noconvert
  // prints them as they are.
  constexpr std::string_view k_units = std::string_view("\0KMGTP?", 7);
  if (static_cast<std::int64_t>(value) == 0) return "0";
  int unit = start_unit;
  if (convert) {
    while (value >= divisor &&
           (aggressive ||
            static_cast<std::uint64_t>(value) % static_cast<std::uint64_t>(divisor / 2) == 0)) {
      value /= divisor;
      ++unit;
    }
  }
  if (unit > 5) unit = 6;
  const auto whole = static_cast<std::uint64_t>(value);
  std::string suffix;
  if (unit > 0) suffix = std::string(1, k_units[static_cast<std::size_t>(unit)]);
  if (static_cast<double>(whole) == value) return fmt::format("{}{}", whole, suffix);
  return fmt::format("{:.2f}{}", value, suffix);
}

std::string_view default_fields() {
  return "jobid,maxvmsize,maxvmsizenode,maxvmsizetask,avevmsize,maxrss,maxrssnode,maxrsstask,"
         "averss,maxpages,maxpagesnode,maxpagestask,avepages,mincpu,mincpunode,mincputask,avecpu,"
         "ntasks,avecpufreq,reqcpufreqmin,reqcpufreqmax,reqcpufreqgov,consumedenergy,maxdiskread,"
         "maxdiskreadnode,maxdiskreadtask,avediskread,maxdiskwrite,maxdiskwritenode,"
         "maxdiskwritetask,avediskwrite,tresusageinave,tresusageinmax,tresusageinmaxn,"
         "tresusageinmaxt,tresusageinmin,tresusageinminn,tresusageinmint,tresusageintot,"
         "tresusageoutave,tresusageoutmax,tresusageoutmaxn,tresusageoutmaxt,tresusageoutmin,"
         "tresusageoutminn,tresusageoutmint,tresusageouttot";
}

std::string_view pid_fields() { return "jobid,nodelist,pids"; }

std::vector<Field> parse_fields(std::string_view list) {
  std::vector<Field> out;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
      item.remove_prefix(1);
    // Slurm's loop stops at an empty item ("jobid,,ntasks" is JobID alone).
    if (item.empty()) break;
    int width = 0;
    if (const std::size_t pct = item.find('%'); pct != std::string_view::npos) {
      width = std::atoi(std::string(item.substr(pct + 1)).c_str());
      item = item.substr(0, pct);
    }
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < k_columns.size() && !found; ++i) {
      if (iequals_prefix(k_columns[i].name, item)) found = i;
    }
    if (!found)
      throw Error(Errc::invalid_argument, fmt::format("Invalid field requested: \"{}\"", item));
    out.push_back(Field{*found, width != 0 ? width : k_columns[*found].width});
  }
  return out;
}

std::string helpformat() {
  std::string out;
  for (std::size_t i = 0; i < k_columns.size(); ++i) {
    if ((i & 3) != 0)
      out += ' ';
    else if (i != 0)
      out += '\n';
    out += fmt::format("{:<19}", k_columns[i].name);
  }
  return out + '\n';
}

std::string render_header(const Output& o) {
  if (o.no_header) return {};
  std::string names, dashes;
  for (std::size_t i = 0; i < o.fields.size(); ++i) {
    const Field& f = o.fields[i];
    const bool last = i + 1 == o.fields.size();
    const std::string_view name = k_columns.at(f.column).name;
    if (o.parsable != format::Parsable::no) {
      names += cell(o, f, std::string(name), false, last);
      continue;
    }
    const int width = std::abs(f.width);
    names += cell(o, f, std::string(name.substr(0, static_cast<std::size_t>(width))), false, last);
    dashes += std::string(static_cast<std::size_t>(width), '-') + ' ';
  }
  if (o.parsable != format::Parsable::no) return names + '\n';
  return names + '\n' + dashes + '\n';
}

std::string render_line(const Output& o, const StepLine& line) {
  std::string out;
  for (std::size_t i = 0; i < o.fields.size(); ++i) {
    const Field& f = o.fields[i];
    const Column& c = k_columns.at(f.column);
    out += cell(o, f, value(c.col, line, o.convert), c.kind == Kind::str, i + 1 == o.fields.size());
  }
  return out + '\n';
}

}  // namespace stint::cli::sstat
