--! Previous: sha1:e484d838a1eae1e989ef1e76a6eed8d1d7dbd5e3
--! Hash: sha1:c0b01a53a7303466b0259486b7107eb7f5bf5e8b
--! Message: Response cache: monitor matches announce their changes

-- The P2000 matches of monitors (app_hidden.monitor_matches) are what a p2000Messages filter naming a
-- monitor reads: the worker stores them after the messages' own commit, so they announce their own
-- change, in the domain of the monitors (plugins/response-cache.ts keeps such answers per environment).
drop trigger if exists _900_notify_data_changed on app_hidden.monitor_matches;
create trigger _900_notify_data_changed after insert or update or delete or truncate on app_hidden.monitor_matches
  for each statement execute function app_hidden.tg__notify_data_changed('monitors');
