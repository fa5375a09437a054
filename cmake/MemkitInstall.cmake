# Install rules (STYLE K4): the libraries and the tool, the headers, memkitConfig.cmake with its
# version file, and memkit.pc. Included by the top-level CMakeLists.txt when MEMKIT_INSTALL is ON.
include(CMakePackageConfigHelpers)

set(MEMKIT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/memkit"
    CACHE STRING "Where memkitConfig.cmake is installed, relative to the prefix")

# memkit::memkit is static, so it ships with the export set; memkit::c is libmemkit.so.
install(TARGETS memkit_core memkit_c
  EXPORT memkitTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime NAMELINK_COMPONENT Development
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
if(TARGET memkit_cli)
  install(TARGETS memkit_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
endif()
# memkit::postgres (MEMKIT_WITH_POSTGRES), the PostgreSQL sync adapter, is linked into libmemkit.so
# and the tool; it is not installed on its own: its interface is a shell type, which C++ hosts
# reach through the C ABI like every other part of the shell.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/memkit
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT Development
  FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_SOURCE_DIR}/capi/memkit.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT Development)

install(EXPORT memkitTargets
  NAMESPACE memkit::
  DESTINATION ${MEMKIT_INSTALL_CMAKEDIR}
  COMPONENT Development)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/memkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/memkitConfig.cmake
  INSTALL_DESTINATION ${MEMKIT_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/memkitConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/memkitConfig.cmake
  ${PROJECT_BINARY_DIR}/memkitConfigVersion.cmake
  DESTINATION ${MEMKIT_INSTALL_CMAKEDIR}
  COMPONENT Development)

# memkit.pc finds its prefix from its own location, so `cmake --install --prefix` stays correct.
set(_memkit_pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(MEMKIT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _memkit_pc_up "/memkit-prefix/${_memkit_pc_dir}" "/memkit-prefix")
  string(REGEX REPLACE "/$" "" _memkit_pc_up "${_memkit_pc_up}")
  set(MEMKIT_PC_PREFIX "\${pcfiledir}/${_memkit_pc_up}")
endif()
foreach(_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(MEMKIT_PC_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(MEMKIT_PC_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/memkit.pc.in ${PROJECT_BINARY_DIR}/memkit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/memkit.pc DESTINATION ${_memkit_pc_dir} COMPONENT Development)
