# ---------------------------------------------------------------- help
# make help: every target named in the Makefile and mk/, one line each, from
# the `## ` comment on its rule line, in the order the files are read.
# check-help (make test) asks every such target for one, and proves that it
# fires: a copy of the Makefile with a target that has none is refused.
HELP_FILES = Makefile $(filter mk/%.mk,$(MAKEFILE_LIST))
.PHONY: help check-help
help: ## every target, one line each (this list)
	@grep -h '^[a-z][a-z0-9_%-]*:.*## ' $(HELP_FILES) | sed 's/:.*## /\t/' | \
	    awk -F'\t' '{ printf "  %-19s %s\n", $$1, $$2 }'
	@echo "  lint/JOB            one job of make lint alone, JOB one of:"
	@echo "$(sort $(LINT_JOBS))" | fold -s -w 76 | sed 's/^/                        /'

check-help: ## every target of the Makefile and mk/ has a help line; a target planted without one is refused
	@sh tests/check_help.sh .
	@rm -rf $(BUILD)/help-fault && mkdir -p $(BUILD)/help-fault && cp -r Makefile mk $(BUILD)/help-fault/
	@printf 'no-help-line: check-tools\n\t@true\n' >> $(BUILD)/help-fault/mk/help.mk
	@if sh tests/check_help.sh $(BUILD)/help-fault >/dev/null; then \
	    echo "check-help: a target without a help line went unnoticed"; exit 1; fi
