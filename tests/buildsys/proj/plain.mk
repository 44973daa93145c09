# The test project of tests/buildsys with a plain Makefile: mpicc and mpicxx
# from PATH, as with MPICH or Open MPI.
CC = mpicc
CXX = mpicxx
CXXFLAGS = -std=c++11

all: sum sum_cxx

sum_cxx: sum.cpp
	$(CXX) $(CXXFLAGS) -o $@ sum.cpp
