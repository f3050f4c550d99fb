#include "cli/sbatch_pbs.hpp"

#include <array>
#include <optional>
#include <cctype>
#include <string>

#include <fmt/core.h>

#include <stint/parse.hpp>

#include "cli/sbatch_directives.hpp"
#include "cli/sbatch_options.hpp"

namespace stint::cli {
namespace {

// The options of the two wrappers as Slurm's xlate.c declares them. The ids
// are the option letters.
constexpr OptionSpec flag(char c, std::string_view name, ArgKind arg) {
  return OptionSpec{c, c, name, arg, 0, "", "", "", Effect::acts, ""};
}
constexpr std::array k_pbs = {
    flag('a', "start_time", ArgKind::required),     flag('A', "account", ArgKind::required),
    flag('c', "checkpoint", ArgKind::required),     flag('C', "working_dir", ArgKind::required),
    flag('e', "error", ArgKind::required),          flag('h', "hold", ArgKind::none),
    flag('I', "interactive", ArgKind::none),        flag('j', "join", ArgKind::required),
    flag('J', "job_array", ArgKind::required),      flag('k', "keep", ArgKind::required),
    flag('l', "resource_list", ArgKind::required),  flag('m', "mail_options", ArgKind::required),
    flag('M', "mail_user_list", ArgKind::required), flag('N', "job_name", ArgKind::required),
    flag('o', "out", ArgKind::required),            flag('p', "priority", ArgKind::required),
    flag('q', "destination", ArgKind::required),    flag('r', "rerunable", ArgKind::required),
    flag('S', "script_path", ArgKind::required),    flag('t', "array", ArgKind::required),
    flag('u', "running_user", ArgKind::required),   flag('v', "variable_list", ArgKind::required),
    flag('V', "all_env", ArgKind::none),            flag('W', "attributes", ArgKind::required),
    flag('z', "no_std", ArgKind::none),
};
constexpr std::array k_bsub = {
    flag('c', "cwd", ArgKind::required),          flag('e', "error_file", ArgKind::required),
    flag('J', "job_name", ArgKind::required),     flag('m', "hostname", ArgKind::required),
    flag('M', "memory_limit", ArgKind::required), flag('n', "", ArgKind::required),
    flag('o', "output_file", ArgKind::required),  flag('q', "queue_name", ArgKind::required),
    flag('W', "time", ArgKind::required),         flag('x', "exclusive", ArgKind::none),
};

struct Translation {
  std::vector<FoundOption> out;
  std::string directive;  // "#PBS -l": the spelling of what it makes

  void add(SbatchOpt id, std::optional<std::string> value = std::nullopt) {
    out.push_back(FoundOption{static_cast<int>(id), directive, std::move(value), 0});
  }
};

bool starts_with(std::string_view text, std::size_t at, std::string_view prefix, bool fold) {
  if (text.size() - at < prefix.size()) return false;
  for (std::size_t k = 0; k < prefix.size(); ++k) {
    const char a = text[at + k];
    const char b = prefix[k];
    if (fold ? std::tolower(static_cast<unsigned char>(a)) != b : a != b) return false;
  }
  return true;
}

// The value from `i` up to `sep` (or the end); `i` moves past the separator.
std::string value_until(std::string_view text, std::size_t& i, char sep) {
  const std::size_t start = i;
  while (i < text.size() && text[i] != sep) ++i;
  std::string value(text.substr(start, i - start));
  if (i < text.size()) ++i;
  return value;
}

void skip_option(std::string_view text, std::size_t& i) {
  while (i < text.size() && text[i] != ',') ++i;
  if (i < text.size()) ++i;
}

std::string without_byte_suffix(std::string value) {
  // Torque writes sizes as GB or MB; Slurm wants G or M.
  if (!value.empty() && std::toupper(static_cast<unsigned char>(value.back())) == 'B') {
    value.pop_back();
  }
  return value;
}

long leading_number(std::string_view text, std::size_t i) {
  long n = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
    n = n * 10 + (text[i] - '0');
    ++i;
  }
  return n;
}

// nodes=2:ppn=4:gpus=1+host1 (Torque).
void pbs_nodes(Translation& t, std::string_view nodes) {
  std::size_t i = 0;
  long ppn = 0;
  long count = 0;
  std::vector<std::string> hosts;
  auto next_part = [&] {
    while (i < nodes.size() && nodes[i] != '+' && nodes[i] != ':') ++i;
    if (i < nodes.size()) ++i;
  };
  auto name = [&] {
    const std::size_t start = i;
    while (i < nodes.size() && nodes[i] != '+' && nodes[i] != ':') ++i;
    std::string n(nodes.substr(start, i - start));
    if (i < nodes.size()) ++i;
    return n;
  };
  while (i < nodes.size()) {
    if (starts_with(nodes, i, "gpus=", false)) {
      i += 5;
      t.add(SbatchOpt::gpus_per_node, name());
    } else if (starts_with(nodes, i, "ppn=", false)) {
      i += 4;
      ppn += leading_number(nodes, i);
      next_part();
    } else if (std::isdigit(static_cast<unsigned char>(nodes[i])) != 0) {
      count += leading_number(nodes, i);
      next_part();
    } else if (std::isalpha(static_cast<unsigned char>(nodes[i])) != 0) {
      hosts.push_back(name());
    } else {
      ++i;
    }
  }
  if (count == 0) {
    count = 1;
  } else {
    t.add(SbatchOpt::nodes, std::to_string(count));
  }
  if (ppn != 0) t.add(SbatchOpt::ntasks, std::to_string(ppn * count));
  if (!hosts.empty()) t.add(SbatchOpt::nodelist, parse::compress_hostlist(hosts));
}

// -l walltime=1:00:00,mem=4gb,nodes=2:ppn=4 (Torque) or select=2:ncpus=8:mpiprocs=4 (PBS Pro).
void pbs_resources(Translation& t, std::string_view rl) {
  std::size_t i = 0;
  std::uint32_t gpus = 0;
  unsigned pbs_pro = 0;  // select:1 ncpus:2 mpiprocs:4
  std::optional<long> ncpus;
  std::optional<long> mpiprocs;
  auto required = [&](std::string_view what, std::string value) {
    if (value.empty()) throw Error(Errc::usage, fmt::format("No value given for {}", what));
    return value;
  };
  while (i < rl.size()) {
    if (starts_with(rl, i, "accelerator=", true)) {
      i += 12;
      if (starts_with(rl, i, "true", true) && gpus < 1) gpus = 1;
    } else if (starts_with(rl, i, "cput=", false) || starts_with(rl, i, "pcput=", false) ||
               starts_with(rl, i, "walltime=", false)) {
      const std::size_t eq = rl.find('=', i);
      const std::string what(rl.substr(i, eq - i));
      i = eq + 1;
      t.add(SbatchOpt::time, required(what, value_until(rl, i, ',')));
    } else if (starts_with(rl, i, "file=", false)) {
      i += 5;
      t.add(SbatchOpt::tmp, without_byte_suffix(required("file", value_until(rl, i, ','))));
    } else if (starts_with(rl, i, "mem=", false)) {
      i += 4;
      t.add(SbatchOpt::mem, without_byte_suffix(required("mem", value_until(rl, i, ','))));
    } else if (starts_with(rl, i, "mpiprocs=", true)) {
      i += 9;
      const std::string v = value_until(rl, i, ':');
      if (!v.empty()) {
        pbs_pro |= 4;
        mpiprocs = leading_number(v, 0);
        t.add(SbatchOpt::ntasks_per_node, v);
      }
    } else if (starts_with(rl, i, "naccelerators=", true)) {
      i += 14;
      const std::string v = value_until(rl, i, ',');
      if (!v.empty()) gpus = parse::positive_count(v, "naccelerators");
    } else if (starts_with(rl, i, "ncpus=", true)) {
      i += 6;
      const std::string v = value_until(rl, i, ':');
      if (!v.empty()) {
        pbs_pro |= 2;
        ncpus = leading_number(v, 0);
        t.add(SbatchOpt::mincpus, v);
      }
    } else if (starts_with(rl, i, "nice=", false)) {
      i += 5;
      t.add(SbatchOpt::nice, value_until(rl, i, ','));
    } else if (starts_with(rl, i, "nodes=", false)) {
      i += 6;
      pbs_nodes(t, required("nodes", value_until(rl, i, ',')));
    } else if (starts_with(rl, i, "proc=", false)) {
      i += 5;
      t.add(SbatchOpt::constraint, value_until(rl, i, ','));
      skip_option(rl, i);
    } else if (starts_with(rl, i, "select=", true)) {
      i += 7;
      const std::string v = value_until(rl, i, ':');
      if (!v.empty()) {
        pbs_pro |= 1;
        t.add(SbatchOpt::nodes, v);
      }
    } else if (starts_with(rl, i, "arch=", false) || starts_with(rl, i, "host=", false) ||
               starts_with(rl, i, "opsys=", false) || starts_with(rl, i, "other=", false) ||
               starts_with(rl, i, "pmem=", false) || starts_with(rl, i, "pvmem=", false) ||
               starts_with(rl, i, "software=", false) || starts_with(rl, i, "vmem=", false)) {
      // Read and dropped, as Slurm drops them.
      i = rl.find('=', i) + 1;
      skip_option(rl, i);
    } else {
      ++i;
    }
  }
  // select=N:ncpus=C:mpiprocs=P gives C/P CPUs per task when C divides.
  if (pbs_pro == 7 && ncpus && mpiprocs && *mpiprocs > 0 && *ncpus > *mpiprocs) {
    t.add(SbatchOpt::cpus_per_task, std::to_string(*ncpus / *mpiprocs));
  }
  if (gpus > 0) t.add(SbatchOpt::gres, fmt::format("gpu:{}", gpus));
}

std::string pbs_mail_type(std::string_view arg) {
  auto has = [arg](char c) {
    return arg.find(c) != std::string_view::npos ||
           arg.find(static_cast<char>(std::toupper(static_cast<unsigned char>(c)))) !=
               std::string_view::npos;
  };
  if (has('n')) return "NONE";
  std::string out;
  auto add = [&out](std::string_view w) {
    if (!out.empty()) out += ',';
    out += w;
  };
  if (has('b')) add("BEGIN");
  if (has('e')) add("END");
  if (has('a')) add("FAIL");
  return out;
}

// The words of every line starting with `magic`, with the line of each;
// nullopt when there is no such line.
std::optional<Directives> magic_lines(std::string_view script, std::string_view file, std::string_view magic,
                       bool bsub) {
  Directives d;
  bool found = false;
  int line_no = 0;
  int non_comments = 0;
  std::size_t start = 0;
  while (start < script.size()) {
    std::size_t end = script.find('\n', start);
    if (end == std::string_view::npos) end = script.size();
    const std::string_view line = script.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (line.substr(0, magic.size()) != magic) {
      if (line.empty() || line[0] != '#') ++non_comments;
      if (non_comments > 100) break;
      continue;
    }
    found = true;
    for (auto& word : split_directive_words(line.substr(magic.size()), file, line_no, line)) {
      // LSF's -cwd is a single-dash long option; getopt needs it as -c.
      if (bsub && word == "-cwd") word = "-c";
      d.words.push_back(std::move(word));
      d.lines.push_back(line_no);
    }
  }
  if (!found) return std::nullopt;
  return d;
}

std::vector<FoundOption> translate_bsub(const Directives& d) {
  Translation t;
  const OptionScan scan = scan_options(k_bsub, d.words);
  for (const auto& o : scan.options) {
    t.directive = fmt::format("#BSUB -{}", static_cast<char>(o.id));
    const std::string v = o.value.value_or("");
    switch (static_cast<char>(o.id)) {
      case 'c':
        t.add(SbatchOpt::chdir, v);
        break;
      case 'e':
        t.add(SbatchOpt::error, v);
        break;
      case 'J':
        t.add(SbatchOpt::job_name, v);
        break;
      case 'o':
        t.add(SbatchOpt::output, v);
        break;
      case 'm': {
        std::string hosts = v;
        for (char& c : hosts) {
          if (c == ' ') c = ',';
        }
        t.add(SbatchOpt::nodelist, hosts);
        break;
      }
      case 'M':
        // LSF's unit is the KB.
        t.add(SbatchOpt::mem_per_cpu,
              !v.empty() && std::isdigit(static_cast<unsigned char>(v.back())) != 0 ? v + "K" : v);
        break;
      case 'n': {
        const std::size_t comma = v.find(',');
        if (comma != std::string::npos && comma + 1 == v.size()) {
          throw Error(Errc::usage, fmt::format("#BSUB -n format not correct given: '{}'", v));
        }
        t.add(SbatchOpt::ntasks, comma == std::string::npos ? v : v.substr(comma + 1));
        break;
      }
      case 'q':
        t.add(SbatchOpt::partition, v);
        break;
      case 'W':
        t.add(SbatchOpt::time, v);
        break;
      case 'x':
        t.add(SbatchOpt::exclusive);
        break;
      default:
        break;
    }
  }
  if (scan.first_operand < d.words.size()) {
    throw Error(Errc::usage, fmt::format("Invalid argument: {}", d.words[scan.first_operand]));
  }
  return std::move(t.out);
}

std::vector<FoundOption> translate_pbs(const Directives& d) {
  Translation t;
  const OptionScan scan = scan_options(k_pbs, d.words);
  for (const auto& o : scan.options) {
    t.directive = fmt::format("#PBS -{}", static_cast<char>(o.id));
    const std::string v = o.value.value_or("");
    switch (static_cast<char>(o.id)) {
      case 'a':
        t.add(SbatchOpt::begin, v);
        break;
      case 'A':
        t.add(SbatchOpt::account, v);
        break;
      case 'e':
        t.add(SbatchOpt::error, v);
        break;
      case 'o':
        t.add(SbatchOpt::output, v);
        break;
      case 'h':
        t.add(SbatchOpt::hold);
        break;
      case 'J':  // PBS Pro
      case 't':  // Torque
        t.add(SbatchOpt::array, v);
        break;
      case 'l':
        pbs_resources(t, v);
        break;
      case 'm':
        t.add(SbatchOpt::mail_type, pbs_mail_type(v));
        break;
      case 'M':
        t.add(SbatchOpt::mail_user, v);
        break;
      case 'N':
        t.add(SbatchOpt::job_name, v);
        break;
      case 'p':
        t.add(SbatchOpt::nice, v);
        break;
      case 'q':
        t.add(SbatchOpt::partition, v);
        break;
      case 'v':
        // Added to what --export already names (SbatchBuilder joins them).
        t.add(SbatchOpt::export_env, v);
        break;
      case 'W':
        if (v.size() > 7 && starts_with(v, 0, "depend=", true)) {
          t.add(SbatchOpt::dependency, v.substr(7));
        }
        // Other attributes (umask=, ...) Slurm reads and drops, as here.
        break;
      default:
        // -c -C -I -j -k -r -S -u -V -z: read and dropped, as Slurm drops them.
        break;
    }
  }
  if (scan.first_operand < d.words.size()) {
    throw Error(Errc::usage, fmt::format("Invalid argument: {}", d.words[scan.first_operand]));
  }
  return std::move(t.out);
}

}  // namespace

std::vector<FoundOption> pbs_options(std::string_view script, std::string_view file) {
  if (const auto bsub = magic_lines(script, file, "#BSUB", true)) return translate_bsub(*bsub);
  if (const auto pbs = magic_lines(script, file, "#PBS", false)) return translate_pbs(*pbs);
  return {};
}

}  // namespace stint::cli
