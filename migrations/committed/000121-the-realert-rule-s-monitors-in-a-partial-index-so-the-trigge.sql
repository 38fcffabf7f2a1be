--! Previous: sha1:ec5c96f62641e3229cd8d540493d50f5d0d4bef3
--! Hash: sha1:c2b8229bd079de23774d8e061a930e6ea9d69d29
--! Message: The reAlert rule's monitors in a partial index, so the trigger after a batch of matches reads those few, not every monitor

-- Matching stays as fast with the reAlert rule: the trigger after every batch of matches looks for
-- monitors with that rule through an index of those few, not through every monitor.
create index monitors_re_alert_idx on app_public.monitors (uuid) where notification_rules ? 'reAlert';
comment on index app_public.monitors_re_alert_idx is 'The monitors with a reAlert rule: the trigger on monitor_matches (app_hidden.tg_monitor_matches__after_insert) joins a batch of matches to these few, not to every monitor.';
