// sshare: associations with their shares, usage and fair share, as Slurm's
// sshare prints them (src/sshare/process.c with src/common/print_fields.c):
// fields of fixed widths followed by a space, "%f" for fractions, strings cut
// with a '+', blanks for unset values, or '|'-separated with -p/-P.

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/format.hpp>

#include "format/internal.hpp"

namespace stint::format {
namespace {

enum class Kind : std::uint8_t { text, number, fraction, tres };

struct SshareField {
  int width;  // negative: left-aligned
  const char* name;
  Kind kind;
};

// sshare's table, in its order: -o matches a name by prefix, first match wins.
const SshareField k_fields[] = {
    {-20, "Account", Kind::text},         {10, "Cluster", Kind::text},
    {13, "EffectvUsage", Kind::fraction}, {10, "FairShare", Kind::fraction},
    {10, "LevelFS", Kind::fraction},      {6, "ID", Kind::number},
    {11, "NormShares", Kind::fraction},   {11, "NormUsage", Kind::fraction},
    {12, "Partition", Kind::text},        {10, "RawShares", Kind::number},
    {11, "RawUsage", Kind::number},       {10, "User", Kind::text},
    {30, "GrpTRESMins", Kind::tres},      {30, "TRESRunMins", Kind::tres},
};

struct Selected {
  const SshareField* field;
  int width;
};

std::vector<Selected> select_fields(std::string_view list) {
  std::vector<Selected> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    std::string_view item = list.substr(start, end - start);
    start = end + 1;
    if (item.empty()) continue;
    int width = 0;
    if (std::size_t pct = item.find('%'); pct != std::string_view::npos) {
      width = std::atoi(std::string(item.substr(pct + 1)).c_str());
      item = item.substr(0, pct);
    }
    const SshareField* found = nullptr;
    for (const SshareField& f : k_fields) {
      std::string_view name(f.name);
      if (!item.empty() && item.size() <= name.size() &&
          detail::iequals(name.substr(0, item.size()), item)) {
        found = &f;
        break;
      }
    }
    if (!found)
      throw Error(Errc::invalid_argument, fmt::format("Invalid field requested: \"{}\"", item));
    // A width given replaces the size but keeps the side ("%30" stays left for Account).
    int w = found->width;
    if (width != 0) w = found->width < 0 ? -width : width;
    out.push_back({found, w});
  }
  return out;
}

// A fraction in `width` columns: "%*f", or when that is too wide the "%e" form
// print_fields_double falls back to.
std::string fraction(double v, int width) {
  std::string s = fmt::format("{:>{}f}", v, width);
  if (static_cast<int>(s.size()) <= width) return s;
  std::string e = fmt::format("{:>{}.{}e}", v, width, width);
  int w = width;
  if (static_cast<int>(e.size()) > width) w -= static_cast<int>(e.size()) - width;
  w = std::max(w, 0);
  return fmt::format("{:>{}.{}e}", v, w, w);
}

std::string tres_text(const std::vector<std::pair<std::string, std::uint64_t>>& tres) {
  std::string out;
  for (const auto& [name, v] : tres) {
    if (!out.empty()) out += ',';
    out += fmt::format("{}={}", name, v);
  }
  return out;
}

// A fraction field's value; nullopt prints as a blank.
std::optional<double> fraction_of(std::string_view name, const SshareRecord& r) {
  if (name == "NormShares") return r.norm_shares;
  if (name == "NormUsage") return r.is_root ? std::nullopt : std::optional<double>(r.norm_usage);
  if (name == "EffectvUsage") return r.effective_usage;
  if (name == "FairShare") return r.fairshare;
  if (name == "LevelFS") return r.shares_parent ? std::nullopt : r.level_fs;
  return std::nullopt;
}

// The text of any other field; nullopt prints as a blank.
std::optional<std::string> text_of(std::string_view name, const SshareRecord& r,
                                   const SshareOptions& o) {
  if (name == "Account") {
    // The tree shows through indentation; a user line names its account.
    return std::string(static_cast<std::size_t>(r.depth), ' ') + r.account;
  }
  if (name == "Cluster") return o.cluster_name;
  if (name == "User" && !r.user.empty()) return r.user;
  if (name == "Partition" && !r.partition.empty()) return r.partition;
  if (name == "RawShares") {
    if (r.shares_parent) return std::string("parent");
    if (r.raw_shares) return std::to_string(*r.raw_shares);
  }
  if (name == "RawUsage") return fmt::format("{}", static_cast<std::uint64_t>(r.raw_usage));
  if (name == "GrpTRESMins" && !r.grp_tres_mins.empty()) return r.grp_tres_mins;
  if (name == "TRESRunMins") return tres_text(r.tres_run_mins);
  return std::nullopt;
}

// A field as -p/-P print it.
std::string parsable_value(const SshareField& f, const SshareRecord& r, const SshareOptions& o) {
  if (f.kind == Kind::fraction) {
    auto v = fraction_of(f.name, r);
    return v ? fmt::format("{:f}", *v) : std::string();
  }
  return text_of(f.name, r, o).value_or("");
}

// A field as print_fields prints it in a table: width, side, then a space.
// Text longer than the width is cut with a '+' in its last column.
std::string table_value(const Selected& s, const SshareRecord& r, const SshareOptions& o) {
  const int width = std::abs(s.width);
  const Align side = s.width < 0 ? Align::left : Align::right;
  if (s.field->kind == Kind::fraction) {
    auto v = fraction_of(s.field->name, r);
    return (v ? pad(fraction(*v, width), width, side) : std::string(width, ' ')) + ' ';
  }
  std::string text = text_of(s.field->name, r, o).value_or("");
  if (static_cast<int>(text.size()) > width && width > 0) {
    text.resize(static_cast<std::size_t>(width));
    if (s.field->kind != Kind::number) text.back() = '+';
  }
  return pad(text, width, side) + ' ';
}

}  // namespace

std::string render_sshare(const std::vector<SshareRecord>& records, const SshareOptions& o) {
  std::string list = o.format;
  if (list.empty()) {
    // sshare's defaults (process.c): the long form adds NormUsage, LevelFS
    // (Fair Tree only) and the TRES minutes; -m adds the partition.
    list = "A,User,";
    if (o.partitions) list += "P,";
    list += "RawShares,NormShares,RawUsage,";
    if (o.long_list) list += "NormUsage,";
    list += "Eff,Fairshare";
    if (o.long_list)
      list += o.fair_tree ? ",LevelFS,GrpTRESMins,TRESRunMins" : ",GrpTRESMins,TRESRunMins";
  }
  const std::vector<Selected> fields = select_fields(list);
  const bool parsable = o.parsable != Parsable::no;
  std::string out;
  auto join_parsable = [&](const std::vector<std::string>& values) {
    std::string line;
    for (std::size_t i = 0; i < values.size(); ++i) {
      line += values[i];
      if (i + 1 < values.size() || o.parsable == Parsable::trailing) line += '|';
    }
    return line + '\n';
  };
  if (!o.no_header) {
    if (parsable) {
      std::vector<std::string> names;
      for (const Selected& s : fields) names.emplace_back(s.field->name);
      out += join_parsable(names);
    } else {
      for (const Selected& s : fields) {
        const int w = std::abs(s.width);
        out += pad(s.field->name, w, s.width < 0 ? Align::left : Align::right) + ' ';
      }
      out += '\n';
      for (const Selected& s : fields)
        out += std::string(static_cast<std::size_t>(std::abs(s.width)), '-') + ' ';
      out += '\n';
    }
  }
  for (const SshareRecord& r : records) {
    if (o.users_only && r.user.empty()) continue;
    if (parsable) {
      std::vector<std::string> values;
      for (const Selected& s : fields) values.push_back(parsable_value(*s.field, r, o));
      out += join_parsable(values);
      continue;
    }
    for (const Selected& s : fields) out += table_value(s, r, o);
    out += '\n';
  }
  return out;
}

std::string sshare_helpformat() {
  std::string out;
  for (std::size_t i = 0; i < std::size(k_fields); ++i) {
    if (i % 4 != 0)
      out += ' ';
    else if (i != 0)
      out += '\n';
    out += fmt::format("{:<17}", k_fields[i].name);
  }
  return out + '\n';
}

}  // namespace stint::format
