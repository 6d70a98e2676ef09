'use strict';
// The programmatic side of pilotagekit: where the pilotage-lint binary of
// this machine is, for tools that run it themselves (@pilotagekit/test).

const { binaryPath, locate, checkVersion, BinaryError, OVERRIDE, version } = require('./binary.js');

module.exports = { binaryPath, locate, checkVersion, BinaryError, OVERRIDE, version };
