/* Nothing to call: this target only defines ICU's data symbol, in a release built by `make`
   (see icu_data.c). */
