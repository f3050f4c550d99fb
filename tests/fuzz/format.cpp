// Format strings: squeue -o and -O, squeue -S, sinfo -o, sacct --format
// (lib/src/format). A format that parses is rendered over the golden tests'
// records, so widths and alignments are exercised too.
#include <stint/format.hpp>

#include "fuzz.hpp"
#include "unit/format/fixtures.hpp"

using namespace stint;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fixtures::use_utc();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the tool and option; the rest is the format.
  const std::string_view text = fuzz::text_of(data + 1, size - 1);
  const format::Context ctx = fixtures::context(fixtures::queue_now());
  switch (data[0] % 5) {
    case 0:
    case 1:
      fuzz::refused_or_parsed([&] {
        format::SqueueOptions o;
        o.layout = data[0] % 5 == 0 ? format::parse_squeue_format(text)
                                    : format::parse_squeue_long_format(text);
        (void)format::render_squeue(fixtures::queue_array_jobs(), o, ctx);
      });
      break;
    case 2:
      fuzz::refused_or_parsed([&] {
        format::SqueueOptions o;
        o.layout = format::squeue_default_layout(false);
        o.sort = std::string(text);
        (void)format::render_squeue(fixtures::queue_jobs(), o, ctx);
      });
      break;
    case 3:
      fuzz::refused_or_parsed([&] {
        (void)format::parse_sinfo_format(text);
        format::SinfoOptions o;
        o.format = std::string(text);
        (void)format::render_sinfo(fixtures::four_partitions(), fixtures::four_nodes(), o, ctx);
        o.node_oriented = true;
        (void)format::render_sinfo(fixtures::four_partitions(), fixtures::four_nodes(), o, ctx);
      });
      break;
    case 4:
      fuzz::refused_or_parsed([&] {
        format::SacctOptions o;
        o.fields = format::parse_sacct_format(text);
        (void)format::render_sacct(fixtures::accounting_jobs(), o, ctx);
        o.parsable = format::Parsable::trailing;
        (void)format::render_sacct(fixtures::accounting_jobs(), o, ctx);
      });
      break;
  }
  return 0;
}
