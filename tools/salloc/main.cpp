#include <stint/tools.hpp>

int main(int argc, char** argv) { return stint::tools::salloc(argc, argv); }
