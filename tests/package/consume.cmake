# Runs one step of the package tests: cmake -D<var>=<value>... -P consume.cmake
#   STEP=install           install the current build into WORK_DIR/prefix (a fresh one each time)
#   STEP=find_package      configure, build and run find_package/ against that prefix
#   STEP=c_only            the same with c_only/, a C-only project (COMPONENTS c, shared and static)
#   STEP=pkg_config        compile and run find_package/main.c with `pkg-config memkit` (shared, and
#                          libmemkit.a with --static) and main.cpp with `pkg-config memkit-cpp`
#   STEP=add_subdirectory  configure add_subdirectory/ over the source tree (the main build builds
#                          and runs its programs)
# Other variables: MEMKIT_SOURCE_DIR MEMKIT_BINARY_DIR MEMKIT_VERSION WORK_DIR GENERATOR
#                  C_COMPILER CXX_COMPILER CONFIG PKG_CONFIG
cmake_minimum_required(VERSION 3.25)

foreach(_var STEP MEMKIT_SOURCE_DIR MEMKIT_BINARY_DIR WORK_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "consume.cmake: -D${_var}=... is required")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
endif()
set(PREFIX "${WORK_DIR}/prefix")
set(CONSUMERS "${MEMKIT_SOURCE_DIR}/tests/package")

function(run)
  execute_process(COMMAND ${ARGN} COMMAND_ECHO STDOUT COMMAND_ERROR_IS_FATAL ANY)
endfunction()

# Configures one consumer project in WORK_DIR/<name>.
function(configure_consumer name)
  set(build "${WORK_DIR}/${name}")
  set(configure_args -S "${CONSUMERS}/${name}" -B "${build}" -DCMAKE_BUILD_TYPE=${CONFIG}
      "-DMEMKIT_EXPECTED_VERSION=${MEMKIT_VERSION}" ${ARGN})
  if(GENERATOR)
    list(APPEND configure_args -G "${GENERATOR}")
  endif()
  if(C_COMPILER)
    list(APPEND configure_args "-DCMAKE_C_COMPILER=${C_COMPILER}")
  endif()
  if(CXX_COMPILER)
    list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
  endif()
  run(${CMAKE_COMMAND} ${configure_args})
endfunction()

# Fails unless the program at `path` loads libmemkit.so (`expected` TRUE) or does not.
function(check_needs_libmemkit path expected)
  find_program(READELF readelf)
  if(NOT READELF)
    return()
  endif()
  execute_process(COMMAND ${READELF} -d "${path}" OUTPUT_VARIABLE dynamic COMMAND_ERROR_IS_FATAL ANY)
  string(FIND "${dynamic}" "[libmemkit.so" at)
  if(expected AND at EQUAL -1)
    message(FATAL_ERROR "${path} does not load libmemkit.so")
  elseif(NOT expected AND NOT at EQUAL -1)
    message(FATAL_ERROR "${path}, linked with libmemkit.a, still loads libmemkit.so")
  endif()
endfunction()

# Configures, builds and runs one consumer project in WORK_DIR/<name>:
#   build_and_run_consumer(<name> PROGRAMS <target>... ARGS <configure argument>...)
function(build_and_run_consumer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "PROGRAMS;ARGS")
  configure_consumer(${name} ${arg_ARGS})
  set(build "${WORK_DIR}/${name}")
  run(${CMAKE_COMMAND} --build "${build}" --config ${CONFIG} --parallel 2 --target ${arg_PROGRAMS})
  foreach(program IN LISTS arg_PROGRAMS)
    set(path "${build}/${program}")
    if(NOT EXISTS "${path}" AND EXISTS "${build}/${CONFIG}/${program}")
      set(path "${build}/${CONFIG}/${program}")  # multi-config generators
    endif()
    run("${path}")
    if(program MATCHES "_static$")
      check_needs_libmemkit("${path}" FALSE)
    elseif(program STREQUAL "consumer_c")
      check_needs_libmemkit("${path}" TRUE)
    endif()
  endforeach()
endfunction()

# Fails unless find_package(memkit) in WORK_DIR/<name> found the install in PREFIX.
function(check_found_in_prefix name)
  file(STRINGS "${WORK_DIR}/${name}/CMakeCache.txt" found REGEX "^memkit_DIR:")
  string(FIND "${found}" "${PREFIX}/" at)
  if(NOT at GREATER -1)
    message(FATAL_ERROR "find_package(memkit) found ${found}, not the install in ${PREFIX}")
  endif()
endfunction()

# Runs `pkg-config <args>` on the prefix's .pc files and puts its output in `out`.
function(pkg_config out)
  execute_process(COMMAND ${PKG_CONFIG} ${ARGN} OUTPUT_VARIABLE value
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

if(STEP STREQUAL "install")
  file(REMOVE_RECURSE "${PREFIX}")
  run(${CMAKE_COMMAND} --install "${MEMKIT_BINARY_DIR}" --prefix "${PREFIX}" --config ${CONFIG})
  file(GLOB_RECURSE _configs "${PREFIX}/*/memkitConfig.cmake")
  if(NOT _configs OR NOT EXISTS "${PREFIX}/include/memkit.h")
    message(FATAL_ERROR "the install into ${PREFIX} lacks memkitConfig.cmake or memkit.h")
  endif()
  # The shell files, where each shell looks under a prefix other than /usr (zsh: site-functions).
  foreach(_file bin/memkit share/bash-completion/completions/memkit share/zsh/site-functions/_memkit
                share/fish/vendor_completions.d/memkit.fish share/man/man1/memkit.1
                share/man/man1/memkit-custodian.1 share/doc/memkit/LICENSE)
    if(NOT EXISTS "${PREFIX}/${_file}")
      message(FATAL_ERROR "the install into ${PREFIX} lacks ${_file}")
    endif()
  endforeach()

elseif(STEP STREQUAL "find_package")
  # A fresh build each time, so memkit_DIR is searched for, not taken from an old cache.
  file(REMOVE_RECURSE "${WORK_DIR}/find_package")
  build_and_run_consumer(find_package PROGRAMS consumer_cpp consumer_c
    ARGS "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
  check_found_in_prefix(find_package)

elseif(STEP STREQUAL "c_only")
  file(REMOVE_RECURSE "${WORK_DIR}/c_only")
  build_and_run_consumer(c_only PROGRAMS consumer_c consumer_c_static
    ARGS "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
  check_found_in_prefix(c_only)
  # Before 1.0 a minor version is an ABI: asking for the previous one must not find this one.
  string(REGEX MATCH "^0\\.([0-9]+)" _matched "${MEMKIT_VERSION}")
  if(_matched AND CMAKE_MATCH_1 GREATER 0)
    math(EXPR _previous "${CMAKE_MATCH_1} - 1")
    file(REMOVE_RECURSE "${WORK_DIR}/c_only_previous")
    set(_args -S "${CONSUMERS}/c_only" -B "${WORK_DIR}/c_only_previous"
        "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
        "-DMEMKIT_EXPECTED_VERSION=0.${_previous}")
    if(C_COMPILER)
      list(APPEND _args "-DCMAKE_C_COMPILER=${C_COMPILER}")
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} ${_args} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out
                    ERROR_VARIABLE _err)
    if(_rc EQUAL 0 OR NOT _err MATCHES "version: ${MEMKIT_VERSION}")
      message(FATAL_ERROR "find_package(memkit 0.${_previous}) accepted ${MEMKIT_VERSION} "
                          "or failed for another reason (${_rc}):\n${_err}")
    endif()
  endif()

elseif(STEP STREQUAL "pkg_config")
  if(NOT PKG_CONFIG)
    set(PKG_CONFIG pkg-config)
  endif()
  if(NOT C_COMPILER)
    set(C_COMPILER cc)
  endif()
  if(NOT CXX_COMPILER)
    set(CXX_COMPILER c++)
  endif()
  file(GLOB_RECURSE _pc_files "${PREFIX}/*/pkgconfig/memkit.pc")
  if(NOT _pc_files)
    message(FATAL_ERROR "no memkit.pc under ${PREFIX}")
  endif()
  list(GET _pc_files 0 _pc_file)
  get_filename_component(_pc_dir "${_pc_file}" DIRECTORY)
  # The system's .pc files (fmt's) stay on pkg-config's default path.
  set(ENV{PKG_CONFIG_PATH} "${_pc_dir}")
  foreach(_module memkit memkit-cpp)
    pkg_config(_version --modversion ${_module})
    if(MEMKIT_VERSION AND NOT _version STREQUAL MEMKIT_VERSION)
      message(FATAL_ERROR "${_module}.pc says version ${_version}, the project is ${MEMKIT_VERSION}")
    endif()
  endforeach()
  pkg_config(_libdir --variable=libdir memkit)
  # pkg-config leaves the path as written: the .pc file is relocatable, so check where it points.
  get_filename_component(_libdir "${_libdir}" REALPATH)
  foreach(_file libmemkit.so libmemkit.a libmemkit_core.a)
    if(NOT EXISTS "${_libdir}/${_file}")
      message(FATAL_ERROR "memkit.pc's libdir ${_libdir} holds no ${_file}")
    endif()
  endforeach()
  set(_c_flags -std=c11 -Wall -Wextra -Wpedantic -Werror)
  set(_programs "${CONSUMERS}/find_package")

  # Shared: libmemkit.so, found at run time through the RUNPATH the link wrote.
  pkg_config(_flags --cflags --libs memkit)
  separate_arguments(_flags UNIX_COMMAND "${_flags}")
  run(${C_COMPILER} ${_c_flags} "${_programs}/main.c" -o "${WORK_DIR}/pkg_config_c" ${_flags}
      "-Wl,-rpath,${_libdir}")
  run("${WORK_DIR}/pkg_config_c")
  check_needs_libmemkit("${WORK_DIR}/pkg_config_c" TRUE)

  # Static: --static adds libmemkit.a's own needs (Libs.private, Requires.private, MK_STATIC); the
  # linker is told to take the archive, as it takes the shared library when both are there.
  pkg_config(_flags --static --cflags --libs memkit)
  if(NOT _flags MATCHES "-DMK_STATIC" OR NOT _flags MATCHES "-lfmt")
    message(FATAL_ERROR "pkg-config --static memkit gave '${_flags}': no -DMK_STATIC or -lfmt")
  endif()
  string(REPLACE "-lmemkit " "-l:libmemkit.a " _flags "${_flags} ")
  separate_arguments(_flags UNIX_COMMAND "${_flags}")
  run(${C_COMPILER} ${_c_flags} "${_programs}/main.c" -o "${WORK_DIR}/pkg_config_c_static" ${_flags})
  run("${WORK_DIR}/pkg_config_c_static")
  check_needs_libmemkit("${WORK_DIR}/pkg_config_c_static" FALSE)

  # The C++ API: memkit-cpp.pc, a static library.
  pkg_config(_flags --cflags --libs memkit-cpp)
  separate_arguments(_flags UNIX_COMMAND "${_flags}")
  run(${CXX_COMPILER} -std=c++20 "${_programs}/main.cpp" -o "${WORK_DIR}/pkg_config_cpp" ${_flags})
  run("${WORK_DIR}/pkg_config_cpp")

elseif(STEP STREQUAL "add_subdirectory")
  # Configure and generate only: tests/package/CMakeLists.txt builds and runs the same programs
  # against the same targets in the main build, so the library is compiled once.
  file(REMOVE_RECURSE "${WORK_DIR}/add_subdirectory")
  configure_consumer(add_subdirectory "-DMEMKIT_SOURCE_DIR=${MEMKIT_SOURCE_DIR}")

else()
  message(FATAL_ERROR "consume.cmake: unknown STEP '${STEP}'")
endif()
