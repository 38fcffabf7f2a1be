// Quiet hours for a monitor under test that never include now: from two to four hours ahead, in
// Amsterdam time. Fixed hours (23:00 to 07:00) suppress the test's own notifications when the
// suite runs at night.
export const QUIET_HOURS = (() => {
  const hour = Number(
    new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone: "Europe/Amsterdam" }).format(
      new Date(),
    ),
  );
  const at = (ahead: number) => `${String((hour + ahead) % 24).padStart(2, "0")}:00`;
  return { from: at(2), to: at(4) };
})();
