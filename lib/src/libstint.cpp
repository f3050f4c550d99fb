// The shared library's own translation unit. Everything else comes from the
// module archives linked whole into it (lib/CMakeLists.txt).
namespace stint {
extern const char* const k_library_name;
const char* const k_library_name = "libstint";
}  // namespace stint
