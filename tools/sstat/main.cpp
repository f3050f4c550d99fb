#include <stint/tools.hpp>

int main(int argc, char** argv) { return stint::tools::sstat(argc, argv); }
