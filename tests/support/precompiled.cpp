// Builds the test programs' shared precompiled header (tests/CMakeLists.txt, memkit_test_pch).
