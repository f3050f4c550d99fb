// sprio: a job's priority factors, weighted (default) or normalised (-n), as
// Slurm's sprio prints them (src/sprio/print.c): integers with "%.0f",
// normalised factors with "%.7f", the normalised priority with "%16.14f", every
// field cut to its width.

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/format.hpp>

#include "format/internal.hpp"

namespace stint::format {
namespace {

enum class Line : std::uint8_t { header, job, weights };

struct Cell {
  const SprioRecord* record = nullptr;  // for Line::job
  const SprioWeights* weights = nullptr;
  const Context* ctx = nullptr;
};

std::string whole(double v) { return fmt::format("{:.0f}", v); }
std::string norm(double v) { return fmt::format("{:.7f}", v); }

// A factor column: weighted (upper-case letter) or normalised (lower case);
// the weights line prints the weight in both.
std::string factor(const Cell& c, Line line, double SprioRecord::*field,
                   std::uint32_t SprioWeights::*weight, bool weighted) {
  const std::uint32_t w = c.weights->*weight;
  if (line == Line::weights) return whole(w);
  const double f = c.record->*field;
  if (weighted) return whole(f * w);
  return norm(w ? f : 0);
}

double tres_weight(const SprioWeights& w, const std::string& name) {
  for (const auto& [n, weight] : w.tres) {
    if (n == name) return weight;
  }
  return 0;
}

double tres_sum(const SprioRecord& r, const SprioWeights& w) {
  double sum = 0;
  for (const auto& [name, f] : r.tres) sum += f * tres_weight(w, name);
  return sum;
}

std::string tres(const Cell& c, Line line, bool weighted) {
  if (line == Line::weights) return weighted ? c.weights->tres_text : std::string();
  std::string out;
  for (const auto& [name, f] : c.record->tres) {
    const double w = tres_weight(*c.weights, name);
    if (f * w == 0) continue;
    if (!out.empty()) out += ',';
    out += weighted ? fmt::format("{}={:.0f}", name, f * w) : fmt::format("{}={:.2f}", name, f);
  }
  return out;
}

struct SprioColumn {
  char letter;
  const char* header;
  std::string (*text)(const Cell&, Line);
};

// clang-format off
const SprioColumn k_columns[] = {
  {'a', "AGE", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::age, &SprioWeights::age, false); }},
  {'A', "AGE", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::age, &SprioWeights::age, true); }},
  {'b', "ASSOC", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::assoc, &SprioWeights::assoc, false); }},
  {'B', "ASSOC", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::assoc, &SprioWeights::assoc, true); }},
  {'c', "CLUSTER", [](const Cell& c, Line l) { return l == Line::job ? c.ctx->cluster_name : std::string(); }},
  {'f', "FAIRSHARE", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::fairshare, &SprioWeights::fairshare, false); }},
  {'F', "FAIRSHARE", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::fairshare, &SprioWeights::fairshare, true); }},
  {'i', "JOBID", [](const Cell& c, Line l) { return l == Line::job ? std::to_string(c.record->id) : std::string("Weights"); }},
  {'j', "JOBSIZE", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::job_size, &SprioWeights::job_size, false); }},
  {'J', "JOBSIZE", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::job_size, &SprioWeights::job_size, true); }},
  {'n', "QOSNAME", [](const Cell& c, Line l) { return l == Line::job ? c.record->qos : std::string(); }},
  {'N', "NICE", [](const Cell& c, Line l) { return l == Line::job ? std::to_string(c.record->nice) : std::string(); }},
  {'o', "ACCOUNT", [](const Cell& c, Line l) { return l == Line::job ? c.record->account : std::string(); }},
  {'p', "PARTITION", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::partition_factor, &SprioWeights::partition, false); }},
  {'P', "PARTITION", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::partition_factor, &SprioWeights::partition, true); }},
  {'q', "QOS", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::qos_factor, &SprioWeights::qos, false); }},
  {'Q', "QOS", [](const Cell& c, Line l) { return factor(c, l, &SprioRecord::qos_factor, &SprioWeights::qos, true); }},
  {'r', "PARTITION", [](const Cell& c, Line l) { return l == Line::job ? c.record->partition : std::string(); }},
  {'S', "SITE", [](const Cell& c, Line l) { return l == Line::job ? std::to_string(c.record->site) : std::string("1"); }},
  {'t', "TRES", [](const Cell& c, Line l) { return tres(c, l, false); }},
  {'T', "TRES", [](const Cell& c, Line l) { return tres(c, l, true); }},
  {'u', "USER", [](const Cell& c, Line l) { return l == Line::job ? c.record->user : std::string(); }},
  {'y', "PRIORITY", [](const Cell& c, Line l) { return l == Line::job ? fmt::format("{:16.14f}", c.record->priority / 4294967295.0) : std::string(); }},
  {'Y', "PRIORITY", [](const Cell& c, Line l) { return l == Line::job ? fmt::format("{}", static_cast<long long>(c.record->priority)) : std::string(); }},
};
// clang-format on

std::optional<std::size_t> column_of(char letter) {
  for (std::size_t i = 0; i < std::size(k_columns); ++i) {
    if (k_columns[i].letter == letter) return i;
  }
  return std::nullopt;
}

std::string line_of(const Layout& layout, Line line, const Cell& cell) {
  return detail::render_layout(layout, [&](const Field& f) {
    const SprioColumn& col = k_columns[f.column];
    return std::pair{line == Line::header ? std::string(col.header) : col.text(cell, line), true};
  });
}

// -S: letters compared on the job's values; weighted and normalised sort alike.
int compare(char key, const SprioRecord& a, const SprioRecord& b, const SprioWeights& w) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  auto cmp_double = [](double x, double y) {
    if (std::fabs(x - y) < 1e-9) return 0;
    return x < y ? -1 : 1;
  };
  switch (key) {
    case 'c':
      return 0;
    case 'i':
      return cmp(a.id, b.id);
    case 'N':
      return cmp(a.nice, b.nice);
    case 'n':
      return cmp(a.qos, b.qos);
    case 'o':
      return cmp(a.account, b.account);
    case 'r':
      return cmp(a.partition, b.partition);
    case 'u':
      return cmp(a.user, b.user);
    case 'a':
    case 'A':
      return cmp_double(a.age * w.age, b.age * w.age);
    case 'f':
    case 'F':
      return cmp_double(a.fairshare * w.fairshare, b.fairshare * w.fairshare);
    case 'j':
    case 'J':
      return cmp_double(a.job_size * w.job_size, b.job_size * w.job_size);
    case 'p':
    case 'P':
      return cmp_double(a.partition_factor * w.partition, b.partition_factor * w.partition);
    case 'q':
    case 'Q':
      return cmp_double(a.qos_factor * w.qos, b.qos_factor * w.qos);
    case 't':
    case 'T':
      return cmp_double(tres_sum(a, w), tres_sum(b, w));
    case 'y':
    case 'Y':
      return cmp_double(a.priority, b.priority);
    default:
      throw Error(Errc::invalid_argument, fmt::format("Invalid sort specification: {}", key));
  }
}

/// The records' indices in the order -S asks for (default: by job id).
std::vector<std::size_t> record_order(const std::vector<SprioRecord>& records,
                                      std::string_view spec, const SprioWeights& w) {
  if (spec.empty()) spec = "i";
  std::vector<std::size_t> order(records.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Keys apply from the last to the first, each a stable sort, so the first
  // key decides and the later ones break its ties.
  for (std::size_t i = spec.size(); i-- > 0;) {
    const char key = spec[i];
    if (key == ',' || key == '-' || key == '+') continue;
    const bool descending = i > 0 && spec[i - 1] == '-';
    compare(key, SprioRecord{}, SprioRecord{}, w);  // an unknown letter throws before sorting
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      int c = compare(key, records[a], records[b], w);
      return descending ? c > 0 : c < 0;
    });
  }
  return order;
}

}  // namespace

Layout parse_sprio_format(std::string_view format) {
  return detail::parse_percent(format, column_of, "job", false);
}

Layout sprio_default_layout(const SprioOptions& o, const SprioWeights& w) {
  // Slurm 22.05's defaults (src/sprio/sprio.c).
  if (o.normalized) {
    if (o.long_list)
      return parse_sprio_format("%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t");
    std::string f = "%.15i %9r";
    if (o.show_user) f += " %.8u";
    f += " %10y";
    if (w.age) f += " %10a";
    if (w.assoc) f += " %10b";
    if (w.fairshare) f += " %10f";
    if (w.job_size) f += " %10j";
    if (w.partition) f += " %10p";
    if (w.qos) f += " %10q";
    if (!w.tres_text.empty()) f += " %20t";
    return parse_sprio_format(f);
  }
  if (o.long_list)
    return parse_sprio_format(
        "%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T");
  std::string f = "%.15i %9r";
  if (o.show_user) f += " %.8u";
  f += " %.10Y %.10S";
  if (w.age) f += " %.10A";
  if (w.assoc) f += " %.10B";
  if (w.fairshare) f += " %.10F";
  if (w.job_size) f += " %.10J";
  if (w.partition) f += " %.10P";
  if (w.qos) f += " %.10Q";
  if (!w.tres_text.empty()) f += " %.20T";
  return parse_sprio_format(f);
}

std::string render_sprio(std::vector<SprioRecord> records, const SprioOptions& options,
                         const SprioWeights& weights, const Context& ctx) {
  const Layout layout = options.format.empty() ? sprio_default_layout(options, weights)
                                               : parse_sprio_format(options.format);
  std::string out;
  Cell cell{nullptr, &weights, &ctx};
  if (!options.no_header) out += line_of(layout, Line::header, cell);
  if (options.weights) return out + line_of(layout, Line::weights, cell);
  // Printed in order where they are: moving 100,000 records into order was
  // a tenth of sprio's time.
  for (std::size_t i : record_order(records, options.sort, weights)) {
    cell.record = &records[i];
    out += line_of(layout, Line::job, cell);
  }
  return out;
}

}  // namespace stint::format
