# One warning set for every target of the project. Third-party headers come in as SYSTEM includes
# (Debian installs them under /usr/include), so these flags only judge our own code.
add_library(gaus_warnings INTERFACE)
target_compile_options(gaus_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wimplicit-fallthrough -Wmissing-declarations)
if(GAUS_WERROR)
  target_compile_options(gaus_warnings INTERFACE -Werror)
endif()

# gaus_add_library(NAME SOURCES... [DEPS ...]): a static library of one module.
function(gaus_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE gaus_warnings ${ARG_PRIVATE_DEPS})
endfunction()

# gaus_register_methods(LIBRARY FUNCTION): the module LIBRARY defines
# `void gaus::FUNCTION(gaus::MethodRegistry&)`, which adds its methods to the registry. The
# experiment module generates the catalog that calls every registered function, so adding a
# module never means editing a central list.
function(gaus_register_methods library function)
  set_property(GLOBAL APPEND PROPERTY GAUS_METHOD_LIBRARIES ${library})
  set_property(GLOBAL APPEND PROPERTY GAUS_METHOD_REGISTRARS ${function})
endfunction()
