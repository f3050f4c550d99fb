// A batch script's #SBATCH directives, read into a job as sbatch does
// (lib/src/cli/sbatch_directives.cpp, sbatch_options.cpp): every option value
// a directive carries goes through its parser here.
#include "cli/sbatch_directives.hpp"
#include "cli/sbatch_options.hpp"
#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  fuzz::refused_or_parsed([&] { (void)cli::extract_directives(text, "job.sh"); });
  fuzz::refused_or_parsed([&] {
    cli::check_batch_script(text);
    cli::BatchScript script{std::string(text), cli::ScriptSource::file, "/home/user/job.sh"};
    cli::SubmitContext context;
    context.environment = {{"HOME", "/home/user"}, {"PATH", "/usr/bin:/bin"}};
    context.cwd = "/home/user";
    context.hostname = "vm";
    context.now = 1795975241;
    (void)cli::build_sbatch_request(cli::SbatchCommandLine{}, script, context);
  });
  return 0;
}
