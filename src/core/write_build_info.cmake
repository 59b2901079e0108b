# Writes build_info.cpp from build_info.cpp.in with the git revision of the source tree; run at
# every build (a target that is always out of date), it replaces the file only when the text
# changes, so an unchanged revision recompiles nothing.
# Inputs: SOURCE_DIR, TEMPLATE, OUTPUT, GAUS_VERSION.
set(GAUS_REVISION "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} describe --always --dirty --abbrev=7
                  OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE status ERROR_QUIET)
  if(status EQUAL 0 AND revision)
    set(GAUS_REVISION "${revision}")
  endif()
endif()
configure_file(${TEMPLATE} ${OUTPUT}.new @ONLY)
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
