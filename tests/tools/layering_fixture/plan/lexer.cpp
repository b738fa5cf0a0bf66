#include <GLES3/gl3.h>
#include "lexer.hpp"
