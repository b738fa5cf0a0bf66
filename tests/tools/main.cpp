#include "../support/run_guard.hpp"

int main(int argc, char** argv) { return xfbtest::runGuarded(argc, argv); }
