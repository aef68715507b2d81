// play-matrix: (to come)
"use strict";
