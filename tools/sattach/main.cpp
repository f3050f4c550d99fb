#include <stint/tools.hpp>

int main(int argc, char** argv) { return stint::tools::sattach(argc, argv); }
