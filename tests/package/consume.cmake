# Runs one step of the package tests: cmake -D<var>=<value>... -P consume.cmake
#   STEP=install           install the current build into WORK_DIR/prefix (a fresh one each time)
#   STEP=find_package      configure, build and run find_package/ against that prefix
#   STEP=pkg_config        compile and run find_package/main.c with `pkg-config memkit`
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
  set(configure_args -S "${CONSUMERS}/${name}" -B "${build}" -DCMAKE_BUILD_TYPE=${CONFIG} ${ARGN})
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

# Configures, builds and runs one consumer project in WORK_DIR/<name>.
function(build_and_run_consumer name)
  configure_consumer(${name} ${ARGN})
  set(build "${WORK_DIR}/${name}")
  run(${CMAKE_COMMAND} --build "${build}" --config ${CONFIG} --parallel 2
      --target consumer_cpp consumer_c)
  foreach(program consumer_cpp consumer_c)
    set(path "${build}/${program}")
    if(NOT EXISTS "${path}" AND EXISTS "${build}/${CONFIG}/${program}")
      set(path "${build}/${CONFIG}/${program}")  # multi-config generators
    endif()
    run("${path}")
  endforeach()
endfunction()

if(STEP STREQUAL "install")
  file(REMOVE_RECURSE "${PREFIX}")
  run(${CMAKE_COMMAND} --install "${MEMKIT_BINARY_DIR}" --prefix "${PREFIX}" --config ${CONFIG})
  file(GLOB_RECURSE _configs "${PREFIX}/*/memkitConfig.cmake")
  if(NOT _configs OR NOT EXISTS "${PREFIX}/include/memkit.h")
    message(FATAL_ERROR "the install into ${PREFIX} lacks memkitConfig.cmake or memkit.h")
  endif()

elseif(STEP STREQUAL "find_package")
  # A fresh build each time, so memkit_DIR is searched for, not taken from an old cache.
  file(REMOVE_RECURSE "${WORK_DIR}/find_package")
  build_and_run_consumer(find_package "-DCMAKE_PREFIX_PATH=${PREFIX}"
                         -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
  file(STRINGS "${WORK_DIR}/find_package/CMakeCache.txt" _found REGEX "^memkit_DIR:")
  string(FIND "${_found}" "${PREFIX}/" _at)
  if(NOT _at GREATER -1)
    message(FATAL_ERROR "find_package(memkit) found ${_found}, not the install in ${PREFIX}")
  endif()

elseif(STEP STREQUAL "pkg_config")
  if(NOT PKG_CONFIG)
    set(PKG_CONFIG pkg-config)
  endif()
  file(GLOB_RECURSE _pc_files "${PREFIX}/*/pkgconfig/memkit.pc")
  if(NOT _pc_files)
    message(FATAL_ERROR "no memkit.pc under ${PREFIX}")
  endif()
  list(GET _pc_files 0 _pc_file)
  get_filename_component(_pc_dir "${_pc_file}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${_pc_dir}")
  execute_process(COMMAND ${PKG_CONFIG} --modversion memkit OUTPUT_VARIABLE _version
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  if(MEMKIT_VERSION AND NOT _version STREQUAL MEMKIT_VERSION)
    message(FATAL_ERROR "memkit.pc says version ${_version}, the project is ${MEMKIT_VERSION}")
  endif()
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs memkit OUTPUT_VARIABLE _flags
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${PKG_CONFIG} --variable=libdir memkit OUTPUT_VARIABLE _libdir
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  # pkg-config leaves the path as written: the .pc file is relocatable, so check where it points.
  get_filename_component(_libdir "${_libdir}" REALPATH)
  if(NOT EXISTS "${_libdir}/libmemkit.so")
    message(FATAL_ERROR "memkit.pc's libdir ${_libdir} holds no libmemkit.so")
  endif()
  separate_arguments(_flags UNIX_COMMAND "${_flags}")
  if(NOT C_COMPILER)
    set(C_COMPILER cc)
  endif()
  set(_program "${WORK_DIR}/pkg_config_consumer")
  run(${C_COMPILER} -std=c11 -Wall -Wextra -Wpedantic -Werror "${CONSUMERS}/find_package/main.c"
      -o "${_program}" ${_flags} "-Wl,-rpath,${_libdir}")
  run("${_program}")

elseif(STEP STREQUAL "add_subdirectory")
  # Configure and generate only: tests/package/CMakeLists.txt builds and runs the same programs
  # against the same targets in the main build, so the library is compiled once.
  file(REMOVE_RECURSE "${WORK_DIR}/add_subdirectory")
  configure_consumer(add_subdirectory "-DMEMKIT_SOURCE_DIR=${MEMKIT_SOURCE_DIR}")

else()
  message(FATAL_ERROR "consume.cmake: unknown STEP '${STEP}'")
endif()
