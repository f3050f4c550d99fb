#include <stint/tools.hpp>

int main(int argc, char** argv) { return stint::tools::run_plot(argc, argv); }
