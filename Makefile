# SchemaLab: `make bench` runs the default scenarios and renders plots; `make test` runs the tests.
SWIFT     ?= swift
BIN       := .build/release/schemalab
SCENARIOS ?= $(filter-out scenarios/schema.json,$(wildcard scenarios/*.json))
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup setup-instructions setup-browser build bench bench-scale bench-log bench-advise plots test test-sanitize lint format docs ci ci-baseline clean fuzz fuzz-build fuzz-seeds fuzz-smoke

# setup: install what the project needs (libsqlite3-dev, pkg-config, gnuplot, sqlite3 for the report's index advice; python3-jsonschema, which the
# scenario schema test runs, unless python3 or /usr/bin/python3 can already import jsonschema) with apt-get when missing
setup:
	@missing=""; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev pkg-config"; \
	command -v gnuplot >/dev/null 2>&1 || missing="$$missing gnuplot-nox"; \
	command -v sqlite3 >/dev/null 2>&1 || missing="$$missing sqlite3"; \
	{ python3 -c "import jsonschema" || /usr/bin/python3 -c "import jsonschema"; } >/dev/null 2>&1 || missing="$$missing python3-jsonschema"; \
	if [ -n "$$missing" ]; then \
	  echo "make setup: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# setup-instructions: valgrind, for instruction counts (run --instructions; make test and make ci use them)
setup-instructions: setup
	@command -v valgrind >/dev/null 2>&1 || { echo "make setup-instructions: installing valgrind"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind >/dev/null; }

# setup-browser: Chromium, for the test that opens the HTML report in a headless browser (make test runs it)
setup-browser:
	@command -v chromium >/dev/null 2>&1 || { echo "make setup-browser: installing chromium"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }

# build: the release build of the CLI
build: setup
	$(SWIFT) build -c release --product schemalab

# bench: run every scenario in scenarios/ (every .json but schema.json) into results/<name>/, render its charts and
# write its report (results/<name>/report.html and report.md); then the landing page of every claim with its verdict
# (results/index.html and results/findings.md), printing the verdict counts and the reversed claims
bench: build
	@mkdir -p results
	@set -e; for s in $(SCENARIOS); do \
	  name=$$(basename $$s .json); \
	  $(BIN) run $$s --out results/$$name --replace --report; \
	done; \
	$(BIN) findings $(foreach s,$(SCENARIOS),results/$(basename $(notdir $(s)))) --out results

# bench-scale: the source documents' larger sizes (several minutes): the photo matrix swept from 1,000 to 1,000,000
# photos (growth fits and crossovers in its report), ingest and update/delete at 100,000 quakes,
# search at 100,000 people, posts-geo at 100,000 posts (the source's size), delete memory at 10,000 to 1,000,000 and 200 photos of 1-4 MB (scenarios/scale/);
# results/scale-<name>/
bench-scale: build
	@mkdir -p results
	@set -e; \
	$(BIN) run scenarios/quakes-ingest.json --out results/scale-quakes-ingest --replace --size 100000 \
	  --workloads objects,objects-chunked,batch-array,batch-handler; \
	$(BIN) run scenarios/quakes-update-delete.json --out results/scale-quakes-update-delete --replace --size 100000; \
	$(BIN) run scenarios/search.json --out results/scale-search --replace --size 100000 --reps 3; \
	$(BIN) run scenarios/posts-geo.json --out results/scale-posts-geo --replace --size 100000; \
	for s in scenarios/scale/*.json; do \
	  $(BIN) run $$s --out results/scale-$$(basename $$s .json) --replace; \
	done; \
	$(BIN) run scenarios/photos-matrix.json --out results/scale-photos-matrix --replace \
	  --size 1000 3162 10000 31623 100000 316228 1000000 --reps 5; \
	for d in results/scale-*/; do $(BIN) plot $${d%/} > /dev/null; $(BIN) report $${d%/}; done

# bench-log: `schemalab import MODEL --log LOG` (release build) on big SQLDebug logs, not part of bench (30 s after the build):
# logs of BENCH_LOG_SIZES MB written into .build/bench-log by Fuzz/bench-log.py (the fatbobman fixtures and a level-3 session
# of their app repeated: NSLog prefixes, bound values that vary, row dumps, the app's own output), each imported with the
# fixture's model; prints lines, seconds, MB/s and peak resident memory (the import's ru_maxrss, as /usr/bin/time -v reads it),
# and fails when the biggest log's peak is more than twice the smallest's. See docs/import.md, "Reading a big log".
BENCH_LOG_SIZES ?= 20 200
bench-log: build
	python3 Fuzz/bench-log.py $(BIN) Tests/Fixtures/SQLDebug/fatbobman-count-derived.xcdatamodel .build/bench-log $(BENCH_LOG_SIZES)

# bench-advise: schemalab advise on a model of 20 entities with 30 weighted fetches and an insert (scenarios/bench/advise-20.json)
# at the default size on instructions: its steps, trials, cases and seconds, and the report in results/bench-advise/advice.md
bench-advise: build setup-instructions
	@mkdir -p results/bench-advise
	@start=$$(date +%s); $(BIN) advise scenarios/bench/advise-20.json --report results/bench-advise/advice.md \
	  --out results/bench-advise/advise-20-advised.json --replace 2>&1 | tee results/bench-advise/advise.log; \
	  echo "make bench-advise: $$(( $$(date +%s) - start )) s wall"

# plots: re-render the charts and the report of every results/<name>/ directory
plots: build
	@for d in results/*/; do [ -f $$d/results.csv ] && $(BIN) plot $${d%/} > /dev/null && $(BIN) report $${d%/}; done; true

# test: the format check, then the test suite (small data sets; builds debug; the regression gate's test counts
# instructions under valgrind; the report's test opens the HTML page in headless Chromium), then the Examples package
# (SchemaLab as another package uses it: a scenario built and run from Swift), the documentation (make docs), then fuzz-smoke
test: setup setup-instructions setup-browser lint
	@mkdir -p .build; status=0; $(SWIFT) test 2>&1 | tee .build/test.log || status=1; \
	  [ "$$(tail -n 40 .build/test.log | grep -c 'Test run with .* passed')" != 0 ] || status=1; \
	  if [ $$status != 0 ]; then echo "make test: what failed (from .build/test.log):"; \
	    grep -E -A4 'recorded an issue|✘ Test [^r]|error:' .build/test.log | cut -c1-400 | head -80; exit 1; fi
	$(SWIFT) test --package-path Examples --disable-build-manifest-caching
	@$(MAKE) --no-print-directory docs
	@$(MAKE) --no-print-directory fuzz-smoke

# test-sanitize: the test suite under AddressSanitizer, then under ThreadSanitizer (each in its own build directory,
# .build-asan and .build-tsan; the CLI the tests run is built with the same sanitizer). SANITIZERS picks them. The five
# tests of instruction counts (callgrind), memory (a bound, a resident growth) and a time budget are skipped under a sanitizer.
SANITIZERS ?= address thread
test-sanitize: setup setup-instructions setup-browser
	@set -e; for s in $(SANITIZERS); do \
	  echo "make test-sanitize: $$s"; \
	  case $$s in address) dir=.build-asan;; thread) dir=.build-tsan;; *) echo "no sanitizer '$$s' (address, thread)"; exit 2;; esac; \
	  SCHEMALAB_SANITIZER=$$s ASAN_OPTIONS=detect_leaks=0 TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --sanitize=$$s --scratch-path $$dir; \
	done

# fuzz-smoke: each fuzz target for a few seconds from a fixed seed and a fixed number of inputs (the same inputs every
# time; make test runs it after the crash regressions, which the test suite replays)
fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=30 FUZZ_FLAGS="-seed=1 -runs=$(FUZZ_SMOKE_RUNS)"
FUZZ_SMOKE_RUNS ?= 300

# fuzz: the five fuzz targets (Fuzz/: scenario JSON, NSPredicate strings, model XML, store files, SQLDebug logs), built for
# libFuzzer with AddressSanitizer into .build-fuzz, each run for FUZZ_SECONDS (default 60) from its seed corpus (the shipped
# scenarios, the test fixtures and docs, Fuzz/corpus, stores generated from the scenarios, the fixtures' logs) with its
# dictionary (Fuzz/dictionaries).
# Inputs that grow coverage go to .build-fuzz/corpus/<target>; a crashing, leaking or slow input is kept in
# Fuzz/crashes/<target>/ (commit it: make test replays every file there) and fails the target. See docs/fuzzing.md.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= scenario predicate model-xml store log
FUZZ_FLAGS   ?=
fuzz: fuzz-build fuzz-seeds
	@status=0; for t in $(FUZZ_TARGETS); do \
	  case $$t in \
	    scenario) bin=FuzzScenario; seeds="scenarios Tests/Fixtures docs"; max=65536;; \
	    predicate) bin=FuzzPredicate; seeds="Fuzz/corpus/predicate"; max=4096;; \
	    model-xml) bin=FuzzModelXML; seeds="Tests/Fixtures/Models"; max=262144;; \
	    store) bin=FuzzStore; seeds=".build-fuzz/seeds/store"; max=262144;; \
	    log) bin=FuzzLog; seeds=".build-fuzz/seeds/log Fuzz/corpus/log"; max=65536;; \
	    *) echo "make fuzz: no target '$$t' (scenario, predicate, model-xml, store, log)"; exit 2;; \
	  esac; \
	  mkdir -p .build-fuzz/corpus/$$t Fuzz/crashes/$$t; \
	  echo "make fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  LSAN_OPTIONS=suppressions=Fuzz/lsan.supp .build-fuzz/release/$$bin -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=4096 -max_len=$$max \
	    -dict=Fuzz/dictionaries/$$t.dict -artifact_prefix=Fuzz/crashes/$$t/ -print_final_stats=1 $(FUZZ_FLAGS) \
	    .build-fuzz/corpus/$$t $$seeds > .build-fuzz/$$t.log 2>&1 || { status=1; echo "make fuzz: $$t FOUND A PROBLEM (.build-fuzz/$$t.log):"; \
	    grep -E "ERROR|SUMMARY|Test unit written|fatal|Fatal" .build-fuzz/$$t.log | head -8; }; \
	  grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec|^stat::new_units_added|cov: " .build-fuzz/$$t.log | tail -4; \
	done; exit $$status

# fuzz-build: the fuzz targets only (Fuzz/Package.swift, its own build directory, so the normal build does not change)
# --disable-build-manifest-caching: with SwiftPM's cached build plan, a Swift file added to the lab (this package's path
# dependency) since the last fuzz build is left out, and the build fails with "cannot find type"; the plan is made
# again each time instead (half a second when nothing changed).
fuzz-build: setup
	$(SWIFT) build --package-path Fuzz -c release --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
	  --disable-build-manifest-caching

# fuzz-seeds: small stores from the shipped scenarios, the store target's seeds (not committed: they are databases); the
# SQLDebug fixtures' logs, the log target's (a directory of their own: libFuzzer reads every file of a seed directory)
fuzz-seeds:
	@mkdir -p .build-fuzz/seeds/store .build-fuzz/seeds/log
	@cp Tests/Fixtures/SQLDebug/*.log .build-fuzz/seeds/log/
	@bin=.build/debug/schemalab; [ -x $$bin ] || { $(MAKE) --no-print-directory build && bin=$(BIN); }; \
	for s in photos-matrix relationships inheritance ordered-lists posts-geo photo-tags; do \
	  for v in $$(python3 -c "import json,sys; print(' '.join(x['name'] for x in json.load(open('scenarios/'+sys.argv[1]+'.json'))['variants'][:3]))" $$s); do \
	    f=.build-fuzz/seeds/store/$$s-$$(echo $$v | tr '+' '_').sqlite; \
	    [ -f $$f ] || $$bin generate scenarios/$$s.json --size 12 --store $$f --variant $$v > /dev/null; \
	  done; \
	done

# docs: the library's documentation (DocC: the catalog in Sources/SchemaLab/SchemaLab.docc and every public symbol of the
# four library targets, combined into one archive) in .build/docs/SchemaLab; a warning (a link that does not resolve) fails
# it. make test runs it.
docs:
	@mkdir -p .build/docs
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation --product SchemaLab \
	  --enable-experimental-combined-documentation --experimental-skip-synthesized-symbols --warnings-as-errors \
	  --output-path .build/docs/SchemaLab

# lint: fails when a Swift file is not as `make format` leaves it (swift format, with .swift-format)
FORMATTED := Sources Tests Package.swift Fuzz/Package.swift Fuzz/Sources Examples/Package.swift Examples/Sources Examples/Tests
lint:
	@$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED) || \
	  { echo "make lint: the files above are not formatted: run make format"; exit 1; }

# format: formats every Swift file in place (swift format, which ships with the toolchain, with .swift-format)
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

# ci: the regression gate on every shipped scenario at a small size: run it (interleaved, with instruction counts),
# check its assertions (exit 2 on a failure), compare with the committed baseline results/baselines/ci-<name>
# (exit 2 on a regression); reports in the log and in results/ci/<name>.txt and .md. A run that stops early (exit 2 on
# bad input) leaves no complete run directory, so its compare exits 1. CI_FORCE=--across-environments compares across environments.
CI_SIZE   ?= 500
CI_REPS   ?= 5
CI_FORCE  ?=
ci: build setup-instructions
	@mkdir -p results/ci
	@status=0; for s in $(SCENARIOS); do \
	  name=$$(basename $$s .json); size=$(CI_SIZE); \
	  case $$name in photo-storage) size=12;; relationships) size=200;; esac; \
	  rm -rf results/ci/$$name; \
	  $(BIN) run $$s --out results/ci/$$name --size $$size --reps $(CI_REPS) --instructions --quiet; code=$$?; \
	  case $$code in 0) ;; 2) status=2;; *) exit $$code;; esac; \
	  $(BIN) compare ci-$$name results/ci/$$name $(CI_FORCE) --markdown results/ci/$$name.md > results/ci/$$name.txt; code=$$?; \
	  cat results/ci/$$name.txt; \
	  case $$code in 0) ;; 2) status=2;; *) exit $$code;; esac; \
	done; exit $$status

# ci-baseline: run the CI gate's runs and store them as the committed baselines results/baselines/ci-<name>
ci-baseline: build setup-instructions
	@mkdir -p results/ci
	@set -e; for s in $(SCENARIOS); do \
	  name=$$(basename $$s .json); size=$(CI_SIZE); \
	  case $$name in photo-storage) size=12;; relationships) size=200;; esac; \
	  $(BIN) run $$s --out results/ci/$$name --replace --size $$size --reps $(CI_REPS) --instructions --quiet; \
	  $(BIN) baseline save results/ci/$$name ci-$$name --replace; \
	done

# clean: remove build products and results (the committed baselines in results/baselines stay)
clean:
	rm -rf .build
	find results -mindepth 1 -maxdepth 1 -type d ! -name baselines -exec rm -rf {} +
