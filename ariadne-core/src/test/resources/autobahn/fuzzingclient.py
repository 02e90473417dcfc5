# Runs Autobahn|Testsuite's fuzzing client (wstest -m fuzzingclient) with the spec given as the
# first argument, under Jython, with the suite's modules on the class path (the jar of
# me.normanmaurer.maven.autobahntestsuite:autobahntestsuite-maven-plugin).
import sys
import json
from autobahntestsuite import wstest

spec = json.load(open(sys.argv[1]))
wstest.start({'mode': 'fuzzingclient'}, spec)
