#pragma once
// Text for XML and HTML (the SVG pictures of stint report and run-plot).

#include <string>
#include <string_view>

namespace stint::xml {

/// `text` with &, <, >, " and ' replaced by entities, and the control
/// characters XML 1.0 forbids even as references shown as '?'.
std::string escape(std::string_view text);

}  // namespace stint::xml
