# Sanitized builds (docs/contributing.md, "Sanitizers" and "Fuzzing").
# - GAUS_SANITIZE=address,undefined (any -fsanitize list) instruments every target of the
#   project. UBSan reports abort the test that triggers them (-fno-sanitize-recover), so a
#   report fails ctest instead of scrolling by. scripts/test-sanitized.sh builds one in
#   build-asan/ and runs the default tests of core, io and heuristic there (opt-in: too slow
#   for CI's budget).
# - GAUS_FUZZ=ON (clang only) adds libFuzzer's coverage instrumentation, so tests/fuzz can link
#   its harnesses with -fsanitize=fuzzer; combine it with GAUS_SANITIZE=address,undefined.
set(GAUS_SANITIZE "" CACHE STRING "Sanitizers for every target, e.g. address,undefined")
option(GAUS_FUZZ "Build the libFuzzer harnesses of tests/fuzz (needs clang)" OFF)

if(GAUS_SANITIZE)
  # Frame pointers and line tables make the reports' stacks readable at -O1.
  add_compile_options(-fsanitize=${GAUS_SANITIZE} -fno-omit-frame-pointer -g1)
  add_link_options(-fsanitize=${GAUS_SANITIZE})
  if(GAUS_SANITIZE MATCHES "undefined")
    add_compile_options(-fno-sanitize-recover=undefined)
  endif()
endif()

if(GAUS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GAUS_FUZZ needs clang (libFuzzer): configure with CXX=clang++")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
