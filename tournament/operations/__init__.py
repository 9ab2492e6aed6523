"""Running the app as a service: the health page a load balancer probes (:mod:`.health`), error
reports to Sentry (:mod:`.errors`), JSON log lines (:mod:`.logs`) and backups of a club's events
or the whole database, on demand and every few minutes while an event plays (:mod:`.backups`);
the tokens in addresses kept out of reports and logs (:mod:`.secrets`).

:mod:`.logs`, :mod:`.errors` and :mod:`.secrets` are read by the settings, before Django is set up: they import
nothing of the app's."""
