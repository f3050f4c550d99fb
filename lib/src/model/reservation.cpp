// Advance reservations: the record's own rules (when it is active, its
// Users=/Accounts= lists and how an update changes them).

#include <algorithm>

#include <stint/error.hpp>
#include <stint/reservation.hpp>

namespace stint {

bool ResvFlags::repeats() const {
  return has(ResvFlag::hourly) || has(ResvFlag::daily) || has(ResvFlag::weekday) ||
         has(ResvFlag::weekend) || has(ResvFlag::weekly);
}

bool reservation_active(const Reservation& r, Seconds now) {
  return r.start_time <= now && r.end_time >= now;
}

bool reservation_holds_nodes(const Reservation& r, Seconds now) {
  return r.start_time <= now && now < r.end_time;
}

namespace {

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& names, bool denied) {
  std::string out;
  for (const std::string& n : names) {
    if (!out.empty()) out += ',';
    if (denied) out += '-';
    out += n;
  }
  return out;
}

}  // namespace

NameList name_list(std::string_view text) {
  NameList list;
  if (text.empty()) return list;
  bool first = true;
  for (std::string name : split_commas(text)) {
    const bool minus = !name.empty() && name.front() == '-';
    if (minus) name.erase(0, 1);
    if (name.empty()) throw Error(Errc::invalid_argument, "empty name in list");
    if (first) list.denied = minus;
    // Slurm's "Reservation request has some not/users": a list either names
    // who may use it or who may not.
    if (minus != list.denied) throw Error(Errc::invalid_argument, "mixed not/names in list");
    list.names.push_back(std::move(name));
    first = false;
  }
  return list;
}

std::string update_name_list(std::string_view current, std::string_view change,
                             bool missing_removal_ok) {
  struct Item {
    char op;  // '+', '-', or 0 (set)
    std::string name;
  };
  std::vector<Item> items;
  bool relative = false;
  for (std::string name : split_commas(change)) {
    if (name.empty()) continue;
    char op = 0;
    if (name.front() == '+' || name.front() == '-') {
      op = name.front();
      name.erase(0, 1);
      relative = true;
    } else if (relative) {
      throw Error(Errc::invalid_argument, "list expression mixes set and +/- names");
    }
    if (name.empty()) throw Error(Errc::invalid_argument, "empty name in list");
    items.push_back({op, std::move(name)});
  }
  if (!relative) return std::string(change);  // a plain list replaces the old one

  NameList list = name_list(current);
  // An empty list changed by "-x" becomes the list of those denied; in such a
  // list "-x" adds a denial and "+x" lifts one (Slurm swaps them the same way).
  bool any_minus = false;
  for (const Item& i : items) any_minus = any_minus || i.op == '-';
  if (list.names.empty() && any_minus) list.denied = true;
  for (Item& i : items) {
    if (list.denied && i.op) i.op = i.op == '-' ? '+' : '-';
  }
  for (const Item& i : items) {
    if (i.op != '-') continue;
    auto it = std::find(list.names.begin(), list.names.end(), i.name);
    if (it == list.names.end()) {
      if (missing_removal_ok) continue;
      throw Error(Errc::invalid_argument, "name to remove is not in the list");
    }
    list.names.erase(it);
  }
  for (const Item& i : items) {
    if (i.op != '+') continue;
    if (std::find(list.names.begin(), list.names.end(), i.name) == list.names.end())
      list.names.push_back(i.name);
  }
  return join(list.names, list.denied);
}

}  // namespace stint
