# Reads MK_VERSION_MAJOR/MINOR/PATCH from capi/memkit.h so the C header stays the one version source.
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../capi/memkit.h" _mk_version_lines
     REGEX "^#define MK_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+")
foreach(_part MAJOR MINOR PATCH)
  string(REGEX MATCH "MK_VERSION_${_part} +([0-9]+)" _match "${_mk_version_lines}")
  if(NOT _match)
    message(FATAL_ERROR "capi/memkit.h does not define MK_VERSION_${_part}")
  endif()
  set(MEMKIT_VERSION_${_part} ${CMAKE_MATCH_1})
endforeach()
set(MEMKIT_VERSION "${MEMKIT_VERSION_MAJOR}.${MEMKIT_VERSION_MINOR}.${MEMKIT_VERSION_PATCH}")
