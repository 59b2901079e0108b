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

# gaus_register_methods(LIBRARY FUNCTION [PLUGIN METHODS NAME...]): the module LIBRARY defines
# `void gaus::FUNCTION(gaus::MethodRegistry&)`, which adds its methods to the registry. The
# methods module generates the catalogs that call every registered function, so adding a
# module never means editing a central list. A PLUGIN module (an engine with heavy libraries) is
# also built as a shared library that the gaus program loads the first time one of METHODS is
# looked up, so that commands which run no such method start without loading its libraries.
function(gaus_register_methods library function)
  cmake_parse_arguments(ARG "PLUGIN" "" "METHODS" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY GAUS_METHOD_LIBRARIES ${library})
  set_property(GLOBAL APPEND PROPERTY GAUS_METHOD_REGISTRARS ${function})
  if(ARG_PLUGIN)
    if(NOT ARG_METHODS)
      message(FATAL_ERROR "gaus_register_methods(${library} PLUGIN) needs METHODS")
    endif()
    set_property(GLOBAL APPEND PROPERTY GAUS_PLUGIN_LIBRARIES ${library})
    set_property(GLOBAL PROPERTY GAUS_PLUGIN_${library}_REGISTRAR ${function})
    set_property(GLOBAL PROPERTY GAUS_PLUGIN_${library}_METHODS ${ARG_METHODS})
  else()
    set_property(GLOBAL APPEND PROPERTY GAUS_LINKED_LIBRARIES ${library})
    set_property(GLOBAL APPEND PROPERTY GAUS_LINKED_REGISTRARS ${function})
  endif()
endfunction()
