// The declaration in include/CLibFuzzer.h is all this module provides; the definition is libFuzzer's.
#include "CLibFuzzer.h"
