--! Previous: sha1:c2b8229bd079de23774d8e061a930e6ea9d69d29
--! Hash: sha1:d708f78b21be18d23a3e407cbfd215bab9b861e9
--! Message: respondLink tells the arrival estimate and the availability as stored, so the respond page neither forgets nor clears them

-- respondLink says what the respond page needs to show a returning responder: their arrival
-- estimate and their availability as stored, so the page neither forgets nor clears them.
drop function app_accounts.respond_link(text);
create function app_accounts.respond_link(token text, out dossier_uuid uuid, out message_uuid uuid, out expires_at timestamptz,
    out status text, out arrives_at timestamptz, out availability text, out available_until timestamptz)
  language plpgsql stable security definer set search_path = pg_catalog, public, pg_temp as $$
declare
  n record;
  member app_public.crew_member;
begin
  select * into n from app_private.respond_token_notification(token);
  dossier_uuid := n.dossier_uuid;
  message_uuid := n.message_uuid;
  expires_at := n.expires_at;
  select r.status, r.arrives_at into status, arrives_at from app_public.alert_responders r
   where r.monitor_uuid = n.monitor_uuid and r.incident_uuid = n.incident_uuid and r.channel_uuid = n.channel_uuid;
  select (app_hidden.crew_member_of(c)).* into member from app_public.channels c where c.uuid = n.channel_uuid;
  availability := member.availability;
  available_until := member.until;
end;
$$;
grant execute on function app_accounts.respond_link(text) to app_visitor;
comment on function app_accounts.respond_link(text) is 'respondLink: what the respond page shows as it opens, read with the link''s signed token as the credential (no login) and writing nothing: the incident (the notification''s dossier, else its message), when the link expires, the recipient''s current answer for that incident (going or cancelled; null before any) with its arrival estimate, and the recipient''s availability as it holds now (available or unavailable, until when). The token is checked exactly as respond_on_the_way checks it (app_private.respond_token_notification), with the same UNAUTHENTICATED and NOT_FOUND errors.';
