# SelectiveBuild: build a selective-build target from your own CMake project and link
# its package. Installed with selective-build into <prefix>/share/cmake/SelectiveBuild/,
# where find_package finds it (the virtualenv's bin/ on PATH, or
# -DCMAKE_PREFIX_PATH=<prefix>):
#
#   find_package(SelectiveBuild REQUIRED)
#   selective_build(TARGET add_mul)        # selective.toml of this source folder
#   add_executable(app main.cpp)
#   target_link_libraries(app PRIVATE selective::add_mul)
#
# selective_build(TARGET <target> [MANIFEST <file>] [BUILD_DIR <folder>])
#   MANIFEST   the manifest (default: selective.toml in the current source folder)
#   BUILD_DIR  its build folder (default: selective-build/ in the current binary folder)
# It runs `selective-build manifest=<file> build=<folder> target:<target>` once when the
# project is configured (the package must exist for find_package), then finds the
# target's package (selective_<target>, imported target selective::<target>), and adds a
# build step that runs the same command again before anything linking the package is
# linked: a model or manifest changed since is rebuilt, and nothing else is (the
# command reruns only the stages whose inputs changed). Give the manifest's toolchain a
# `cmake_toolchain_file` naming your CMAKE_TOOLCHAIN_FILE to build both with one compiler.

get_filename_component(_selective_build_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
# Host program and host-side package: never below a cross toolchain's CMAKE_FIND_ROOT_PATH.
find_program(SELECTIVE_BUILD_EXECUTABLE selective-build
  HINTS "${_selective_build_prefix}/bin" NO_CMAKE_FIND_ROOT_PATH
  DOC "the selective-build command")
unset(_selective_build_prefix)
if(NOT SELECTIVE_BUILD_EXECUTABLE)
  set(SelectiveBuild_FOUND FALSE)
  set(SelectiveBuild_NOT_FOUND_MESSAGE "the selective-build command was not found")
  return()
endif()

function(selective_build)
  cmake_parse_arguments(PARSE_ARGV 0 _arg "" "TARGET;MANIFEST;BUILD_DIR" "")
  if(NOT _arg_TARGET)
    message(FATAL_ERROR "selective_build: TARGET <target> is required")
  endif()
  if(_arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "selective_build: unknown arguments ${_arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT _arg_MANIFEST)
    set(_arg_MANIFEST selective.toml)
  endif()
  if(NOT _arg_BUILD_DIR)
    set(_arg_BUILD_DIR selective-build)
  endif()
  get_filename_component(manifest "${_arg_MANIFEST}" ABSOLUTE
    BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(build "${_arg_BUILD_DIR}" ABSOLUTE
    BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  set(command "${SELECTIVE_BUILD_EXECUTABLE}" "manifest=${manifest}" "build=${build}"
    "target:${_arg_TARGET}")

  execute_process(COMMAND ${command}
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "selective_build: target ${_arg_TARGET} of ${manifest} failed:\n"
      "${output}${errors}")
  endif()
  find_package(selective_${_arg_TARGET} REQUIRED CONFIG
    PATHS "${build}/${_arg_TARGET}/package" NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)

  add_custom_target(selective_build_${_arg_TARGET} ALL
    COMMAND ${command}
    BYPRODUCTS "${build}/${_arg_TARGET}/package/lib/libselective_${_arg_TARGET}.a"
    COMMENT "selective-build target:${_arg_TARGET}"
    VERBATIM USES_TERMINAL)
  add_dependencies(selective::${_arg_TARGET} selective_build_${_arg_TARGET})
  # A new target in the manifest, or one renamed, needs the project configured again.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${manifest}")
endfunction()
