# Install rules (STYLE K4): the libraries and the tool, the headers, memkitConfig.cmake with its
# version file, memkit.pc and memkit-cpp.pc. Included by the top-level CMakeLists.txt when MEMKIT_INSTALL is ON.
include(CMakePackageConfigHelpers)

set(MEMKIT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/memkit"
    CACHE STRING "Where memkitConfig.cmake is installed, relative to the prefix")

# Two export sets, one per component of find_package(memkit): "c" (memkit::c, libmemkit.so, and
# memkit::c_static, libmemkit.a) needs nothing but the C library; "cpp" (memkit::memkit, the static
# C++ API) brings its find_dependency list. The Debian package splits along CPack's components:
# Runtime (the CLI, libmemkit.so, completions, man pages) and Development (the rest).
install(TARGETS memkit_c memkit_c_static
  EXPORT memkit-c-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Runtime NAMELINK_COMPONENT Development)
install(TARGETS memkit_core
  EXPORT memkit-cpp-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development)
if(TARGET memkit_cli)
  # The CLI links the library statically: it needs no RUNPATH, nor libmemkit.so, to start.
  install(TARGETS memkit_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
endif()
# The completions and man pages src/cli writes from the command table (docs/cli.md), where each
# shell looks: zsh's folder depends on the prefix, so it is chosen when installing (Debian's zsh
# reads vendor-completions under /usr and site-functions under /usr/local).
if(TARGET memkit_shell_files)
  set(_shell ${MEMKIT_SHELL_FILES_DIR})
  install(FILES ${_shell}/completions/memkit.bash RENAME memkit
    DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT Runtime)
  install(FILES ${_shell}/completions/memkit.fish
    DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT Runtime)
  install(CODE "
    if(CMAKE_INSTALL_PREFIX MATCHES \"/usr/?$\")
      set(_memkit_zsh_dir zsh/vendor-completions)
    else()
      set(_memkit_zsh_dir zsh/site-functions)
    endif()
    file(INSTALL \"${_shell}/completions/_memkit\"
         DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/\${_memkit_zsh_dir}\")"
    COMPONENT Runtime)
  install(DIRECTORY ${_shell}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR} COMPONENT Runtime)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT Runtime)
# memkit::postgres (MEMKIT_WITH_POSTGRES), the PostgreSQL sync adapter, is linked into libmemkit
# and the tool; it is not installed on its own: its interface is a shell type, which C++ hosts
# reach through the C ABI like every other part of the shell.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/memkit
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT Development
  FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_SOURCE_DIR}/capi/memkit.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT Development)

foreach(_component c cpp)
  install(EXPORT memkit-${_component}-targets
    NAMESPACE memkit::
    DESTINATION ${MEMKIT_INSTALL_CMAKEDIR}
    COMPONENT Development)
endforeach()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/memkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/memkitConfig.cmake
  INSTALL_DESTINATION ${MEMKIT_INSTALL_CMAKEDIR})
# Before 1.0 each minor version is its own ABI (the soname is libmemkit.so.0.<minor>), so a
# request for 0.1 is not met by 0.2; from 1.0 on this becomes SameMajorVersion.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_memkit_compatibility SameMinorVersion)
else()
  set(_memkit_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/memkitConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY ${_memkit_compatibility})
install(FILES
  ${PROJECT_BINARY_DIR}/memkitConfig.cmake
  ${PROJECT_BINARY_DIR}/memkitConfigVersion.cmake
  DESTINATION ${MEMKIT_INSTALL_CMAKEDIR}
  COMPONENT Development)

# memkit.pc finds its prefix from its own location, so `cmake --install --prefix` stays correct.
set(_memkit_pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
# Installed into /usr (the Debian packages), the paths are written out, so that pkg-config drops
# the system's own -I and -L as it does for every other library there.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR CMAKE_INSTALL_PREFIX STREQUAL "/usr")
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
set(MEMKIT_PC_DL "")
foreach(_lib IN LISTS CMAKE_DL_LIBS)
  string(APPEND MEMKIT_PC_DL " -l${_lib}")
endforeach()
string(STRIP "${MEMKIT_PC_DL}" MEMKIT_PC_DL)
# memkit.pc is the C ABI (`pkg-config --static memkit` adds what libmemkit.a needs), memkit-cpp.pc
# the static C++ API.
foreach(_pc memkit memkit-cpp)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${_pc}.pc.in ${PROJECT_BINARY_DIR}/${_pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${_pc}.pc DESTINATION ${_memkit_pc_dir} COMPONENT Development)
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/MemkitPackage.cmake)
