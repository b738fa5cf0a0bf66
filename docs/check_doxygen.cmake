# docs.doxygen: the C++ reference builds without a single Doxygen warning (WARN_LOGFILE empty).
# cmake -DDOXYGEN=... -DDOXYFILE=... -DLOG=... -DINPUT=engine/include/xfb -P check_doxygen.cmake
file(REMOVE ${LOG})
execute_process(COMMAND ${DOXYGEN} ${DOXYFILE} RESULT_VARIABLE status ERROR_VARIABLE stderr)
if(status)
  message(FATAL_ERROR "XFB_DOCS_DOXYGEN: doxygen ${DOXYFILE} failed (${status}): ${stderr}")
endif()
file(READ ${LOG} warnings)
if(NOT warnings STREQUAL "")
  message(FATAL_ERROR "XFB_DOCS_DOXYGEN: Doxygen warnings in the public headers; fix the comments they name:\n${warnings}")
endif()
file(GLOB headers ${INPUT}/*.hpp)
list(LENGTH headers count)
message("docs.doxygen: ${count} headers documented without a warning\nxfb-test-run: cases=1 asserts=${count}")
