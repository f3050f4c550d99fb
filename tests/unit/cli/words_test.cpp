#include "cli/words.hpp"

#include <catch2/catch.hpp>

using stint::cli::quoted_words;
using Words = std::vector<std::string>;

TEST_CASE("quoted_words: blanks part words, quotes keep them", "[words]") {
  CHECK(quoted_words("show  job 12") == Words{"show", "job", "12"});
  CHECK(quoted_words("\tupdate JobId=3 Comment='a b'\r") ==
        Words{"update", "JobId=3", "Comment=a b"});
  CHECK(quoted_words("echo \"x 'y'\" ''") == Words{"echo", "x 'y'", ""});
  CHECK(quoted_words("").empty());
  CHECK(quoted_words("   ").empty());
  // An unclosed quote runs to the end of the line.
  CHECK(quoted_words("a 'b c") == Words{"a", "b c"});
}
