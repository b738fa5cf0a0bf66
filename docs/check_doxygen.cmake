# docs.doxygen: the C++ reference of INPUT builds with exactly EXPECT_WARNINGS Doxygen warnings (0 for
# engine/include/xfb; docs.doxygen-planted runs it on docs/tests/doxygen_fixture, whose planted
# comment errors must each be reported). Runs Doxygen with DOXYFILE's settings into WORK.
# cmake -DDOXYGEN=... -DDOXYFILE=... -DINPUT=DIR -DWORK=DIR [-DREPLACE_INPUT=ON] [-DEXPECT_WARNINGS=N] -P check_doxygen.cmake
if(NOT DOXYGEN)
  message(FATAL_ERROR "XFB_DOCS_DOXYGEN: doxygen was not found when this build was configured: "
    "apt-get install doxygen (./xfb setup does), then configure again")
endif()
if(NOT DEFINED EXPECT_WARNINGS)
  set(EXPECT_WARNINGS 0)
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
# DOXYFILE's settings, written into WORK; INPUT replaces its input (and main page) only when it
# is not the configured one (the planted fixture).
set(settings "@INCLUDE = ${DOXYFILE}\nOUTPUT_DIRECTORY = ${WORK}\nWARN_LOGFILE = ${WORK}/warnings.log\n")
if(REPLACE_INPUT)
  string(APPEND settings "INPUT = ${INPUT}\nUSE_MDFILE_AS_MAINPAGE =\n")
endif()
file(WRITE ${WORK}/Doxyfile "${settings}")
execute_process(COMMAND ${DOXYGEN} ${WORK}/Doxyfile RESULT_VARIABLE status ERROR_VARIABLE stderr)
if(status)
  message(FATAL_ERROR "XFB_DOCS_DOXYGEN: doxygen failed (${status}) on ${INPUT}: ${stderr}")
endif()
file(STRINGS ${WORK}/warnings.log warnings REGEX "warning:")
list(REMOVE_DUPLICATES warnings) # Doxygen reports a comment once per place it appears
list(LENGTH warnings count)
file(READ ${WORK}/warnings.log log)
if(NOT count EQUAL EXPECT_WARNINGS)
  message(FATAL_ERROR "XFB_DOCS_DOXYGEN: ${count} Doxygen warnings in ${INPUT}, expected ${EXPECT_WARNINGS}; "
    "fix the comments they name:\n${log}")
endif()
file(GLOB headers ${INPUT}/*.hpp)
list(LENGTH headers files)
message("docs.doxygen: ${files} headers of ${INPUT}, ${count} warnings as expected\nxfb-test-run: cases=1 asserts=${files}")
