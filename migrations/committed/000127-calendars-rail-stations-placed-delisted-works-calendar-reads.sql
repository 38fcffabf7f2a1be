--! Previous: sha1:f18dbb25036817a39146c894710bfa095e56baf6
--! Hash: sha1:e3547b9133468581e5cedcc847d0d3820350e0d0
--! Message: Calendars: rail stations placed, delisted works, calendar reads

-- Calendars (issue 50, docs/open-data.md#calendars): iCalendar feeds of what is planned or has a
-- validity window, per province (/calendars/provinces/<code>.ics, /calendars/netherlands.ics) and
-- per monitor (/feeds/monitors/<secret>.ics). Read by the authenticator through two SECURITY
-- DEFINER functions that answer public columns only; the words are made in Node
-- (lib/open-data/calendars/).
--
-- * Planned railway works lie in a province by their stations: app_private.rail_stations places the
--   NS station codes (Rijden de Treinen's station list of January 2020, CC BY 4.0, as copied in
--   RWCojack007/NS-railway data/stations-2020-01-nl.csv, commit 6911a23: the source of the codes in
--   data/rail-routes.csv too), and the province is the one whose outline holds the station
--   (app_hidden.point_area_keys over the loaded boundaries), so nothing here repeats a boundary.
-- * A planned work that the source stops listing before it began was withdrawn: the calendar shows it
--   cancelled. Future works are listed inactive (isActive is "happening now"), so "inactive" could
--   not tell a withdrawn one from a planned one; the ingest now records when the list stopped
--   holding an item (delisted_at), and clears it when the item comes back.

drop function if exists app_private.province_calendar(text, timestamptz, timestamptz);
drop function if exists app_private.monitor_calendar(bytea, timestamptz, timestamptz);
drop function if exists app_private.calendar_rail_item(app_public.rail_disruptions);
drop function if exists app_private.calendar_meteo_periods(timestamptz, timestamptz);
drop function if exists app_private.rail_station_provinces(text[]);
drop table if exists app_private.rail_stations;

create table app_private.rail_stations (
  code text primary key check (code ~ '^[A-Z]{1,10}$'),
  name text not null check (length(name) between 1 and 200),
  latitude double precision not null check (latitude between -90 and 90),
  longitude double precision not null check (longitude between -180 and 180)
);
alter table app_private.rail_stations enable row level security;
comment on table app_private.rail_stations is 'The Dutch railway stations by NS code (ASD, UT, GERP), with their long name and place: Rijden de Treinen''s station list of January 2020 (CC BY 4.0; RWCojack007/NS-railway data/stations-2020-01-nl.csv, commit 6911a23). Places a railway disruption''s stations in provinces for the calendars (app_private.rail_station_provinces); a code it lacks (a station opened since) places nothing. No policy: read only by SECURITY DEFINER functions.';

insert into app_private.rail_stations (code, name, latitude, longitude) values
  ('AC', 'Abcoude', 52.2785, 4.977),
  ('AH', 'Arnhem Centraal', 51.985000610352, 5.8991665840149),
  ('AHP', 'Arnhem Velperpoort', 51.985279083252, 5.9194445610046),
  ('AHPR', 'Arnhem Presikhaaf', 51.988056182861, 5.9438886642456),
  ('AHZ', 'Arnhem Zuid', 51.955001831055, 5.8519444465637),
  ('AKL', 'Arkel', 51.87194442749, 4.9927778244019),
  ('AKM', 'Akkrum', 53.046390533447, 5.843611240387),
  ('ALM', 'Almere Centrum', 52.37503, 5.21764),
  ('ALMB', 'Almere Buiten', 52.394165039062, 5.2780556678772),
  ('ALMM', 'Almere Muziekwijk', 52.367500305176, 5.1902775764465),
  ('ALMO', 'Almere Oostvaarders', 52.403331756592, 5.3005557060242),
  ('ALMP', 'Almere Parkwijk', 52.376667022705, 5.244722366333),
  ('AMF', 'Amersfoort Centraal', 52.153888702393, 5.3705554008484),
  ('AMFS', 'Amersfoort Schothorst', 52.174822137451, 5.4038887023926),
  ('AML', 'Almelo', 52.358055114746, 6.6538887023926),
  ('AMPO', 'Almere Poort', 52.342778, 5.151944),
  ('AMR', 'Alkmaar', 52.63777923584, 4.7397222518921),
  ('AMRI', 'Almelo de Riet', 52.341945648193, 6.6666665077209),
  ('AMRN', 'Alkmaar Noord', 52.643890380859, 4.7641668319702),
  ('ANA', 'Anna Paulowna', 52.867221832275, 4.8111109733581),
  ('APD', 'Apeldoorn', 52.209167480469, 5.9702777862549),
  ('APDM', 'Apeldoorn De Maten', 52.205276489258, 6.0005555152893),
  ('APDO', 'Apeldoorn Osseveld', 52.215278625488, 6.0044445991516),
  ('APG', 'Appingedam', 53.3258135, 6.8619577),
  ('APN', 'Alphen a/d Rijn', 52.124443054199, 4.6577777862549),
  ('ARN', 'Arnemuiden', 51.501667022705, 3.6691665649414),
  ('ASA', 'Amsterdam Amstel', 52.346668243408, 4.9177780151367),
  ('ASB', 'Amsterdam Bijlmer ArenA', 52.3122215271, 4.9469442367554),
  ('ASD', 'Amsterdam Centraal', 52.378887176514, 4.9002776145935),
  ('ASDL', 'Amsterdam Lelylaan', 52.357776641846, 4.8338890075684),
  ('ASDM', 'Amsterdam Muiderpoort', 52.360553741455, 4.9311113357544),
  ('ASDZ', 'Amsterdam Zuid', 52.338889, 4.872356),
  ('ASHD', 'Amsterdam Holendrecht', 52.29844, 4.95972),
  ('ASN', 'Assen', 52.991664886475, 6.5708332061768),
  ('ASS', 'Amsterdam Sloterdijk', 52.388889312744, 4.8377776145935),
  ('ASSP', 'Amsterdam Science Park', 52.35526, 4.94651),
  ('ATN', 'Aalten', 51.921326524551, 6.5786272287369),
  ('AVAT', 'Amersfoort Vathorst', 52.192779541016, 5.4338889122009),
  ('BD', 'Breda', 51.595554351807, 4.7800002098083),
  ('BDE', 'Bunde', 50.896945953369, 5.7366666793823),
  ('BDG', 'Bodegraven', 52.081390380859, 4.7461109161377),
  ('BDM', 'Bedum', 53.3068857, 6.593054),
  ('BDPB', 'Breda-Prinsenbeek', 51.606388092041, 4.7208333015442),
  ('BET', 'Best', 51.509998321533, 5.3891668319702),
  ('BF', 'Baflo', 53.3608969, 6.5185581),
  ('BGN', 'Bergen op Zoom', 51.49388885498, 4.2961111068726),
  ('BHDV', 'Boven-Hardinxveld', 51.832222, 4.878056),
  ('BHV', 'Bilthoven', 52.130001068115, 5.2038888931274),
  ('BK', 'Beek-Elsloo', 50.947498321533, 5.7866668701172),
  ('BKF', 'Bovenkarspel Flora', 52.696109771729, 5.2527775764465),
  ('BKG', 'Bovenkarspel-Grootebroek', 52.694999694824, 5.2377777099609),
  ('BKL', 'Breukelen', 52.17149, 4.9906),
  ('BL', 'Beilen', 52.854721069336, 6.5211110115051),
  ('BLL', 'Bloemendaal', 52.404167175293, 4.6275000572205),
  ('BMN', 'Brummen', 52.091110229492, 6.1469445228577),
  ('BMR', 'Boxmeer', 51.644521767653, 5.9390330314636),
  ('BN', 'Borne', 52.298889160156, 6.7480554580689),
  ('BNC', 'Barneveld Centrum', 52.139999389648, 5.590277671814),
  ('BNK', 'Bunnik', 52.063056945801, 5.1944446563721),
  ('BNN', 'Barneveld Noord', 52.161388397217, 5.5980553627014),
  ('BNZ', 'Barneveld Zuid', 52.128853, 5.60246),
  ('BP', 'Buitenpost', 53.2564547, 6.1446496),
  ('BR', 'Blerick', 51.372501373291, 6.1550002098083),
  ('BRD', 'Barendrecht', 51.854721069336, 4.5533332824707),
  ('BRN', 'Baarn', 52.208332061768, 5.2808332443237),
  ('BSD', 'Beesd', 51.899444580078, 5.1944446563721),
  ('BSK', 'Boskoop', 52.077777862549, 4.6469445228577),
  ('BSKS', 'Boskoop Snijdelwijk', 52.067658, 4.646186),
  ('BSMZ', 'Bussum Zuid', 52.26583480835, 5.1630554199219),
  ('BTL', 'Boxtel', 51.58433, 5.31912),
  ('BV', 'Beverwijk', 52.478332519531, 4.6566667556763),
  ('BZL', 'Kapelle-Biezelinge', 51.480834960938, 3.9561111927033),
  ('CAS', 'Castricum', 52.545833587646, 4.6586112976074),
  ('CK', 'Cuijk', 51.726682587905, 5.8742952346802),
  ('CL', 'Culemborg', 51.946666717529, 5.2269444465637),
  ('CO', 'Coevorden', 52.663612365723, 6.7355556488037),
  ('CPS', 'Capelle Schollevaar', 51.954166412354, 4.5841665267944),
  ('CVM', 'Chevremont', 50.876110076904, 6.0597224235535),
  ('DA', 'Daarlerveen', 52.4407702, 6.5759947),
  ('DB', 'Driebergen-Zeist', 52.065277099609, 5.25861120224),
  ('DDN', 'Delden', 52.259998321533, 6.7161111831665),
  ('DDR', 'Dordrecht', 51.807220458984, 4.668333530426),
  ('DDRS', 'Dordrecht Stadspolders', 51.801944732666, 4.7166666984558),
  ('DDZD', 'Dordrecht Zuid', 51.790000915527, 4.6713891029358),
  ('DEI', 'Deinum', 53.1888115, 5.7281572),
  ('DID', 'Didam', 51.933502, 6.1324106),
  ('DL', 'Dalfsen', 52.498332977295, 6.25861120224),
  ('DLD', 'Den Dolder', 52.140277862549, 5.2427778244019),
  ('DLN', 'Dalen', 52.69416809082, 6.7580556869507),
  ('DMN', 'Diemen', 52.34515, 4.967566),
  ('DMNZ', 'Diemen Zuid', 52.330276489258, 4.9558334350586),
  ('DN', 'Deurne', 51.455833435059, 5.7888889312744),
  ('DR', 'Dieren', 52.044998168945, 6.1030554771423),
  ('DRH', 'Driehuis', 52.442501068115, 4.6380553245544),
  ('DRON', 'Dronten', 52.5344, 5.72089),
  ('DRP', 'Dronryp', 53.1778086, 5.6347411),
  ('DT', 'Delft', 52.00666809082, 4.3563890457153),
  ('DTC', 'Doetinchem', 51.9585962, 6.2962148),
  ('DTCH', 'Doetinchem De Huet', 51.9591413, 6.2598521),
  ('DTCP', 'Delft Campus', 51.990833282471, 4.3647222518921),
  ('DV', 'Deventer', 52.257499694824, 6.1605553627014),
  ('DVC', 'Deventer Colmschate', 52.2502784729, 6.2144446372986),
  ('DVD', 'Duivendrecht', 52.323333740234, 4.9363889694214),
  ('DVN', 'Duiven', 51.943332672119, 6.0147223472595),
  ('DVNK', 'De Vink', 52.147220611572, 4.4563889503479),
  ('DWE', 'De Westereen', 53.24817, 6.03463),
  ('DZ', 'Delfzijl', 53.3336625, 6.9240797),
  ('DZW', 'Delfzijl West', 53.3320834, 6.9069092),
  ('EC', 'Echt', 51.100555419922, 5.8788890838623),
  ('ED', 'Ede-Wageningen', 52.027778625488, 5.6730556488037),
  ('EDC', 'Ede Centrum', 52.043609619141, 5.668333530426),
  ('EDN', 'Eijsden', 50.771945953369, 5.710000038147),
  ('EEM', 'Eemshaven', 53.458419, 6.832),
  ('EGH', 'Eygelshoven', 50.890556335449, 6.0450000762939),
  ('EGHM', 'Eygelshoven Markt', 50.896049819644, 6.0602474212646),
  ('EHS', 'Eindhoven Strijp-S', 51.451110839844, 5.4558334350586),
  ('EHV', 'Eindhoven Centraal', 51.443332672119, 5.4813890457153),
  ('EKZ', 'Enkhuizen', 52.699165344238, 5.286388874054),
  ('EML', 'Ermelo', 52.301666259766, 5.6147222518921),
  ('EMN', 'Emmen', 52.790000915527, 6.8994445800781),
  ('EMNZ', 'Emmen Zuid', 52.748866374691, 6.8747806549072),
  ('ES', 'Enschede', 52.222499847412, 6.8899998664856),
  ('ESE', 'Enschede De Eschmarke', 52.221389770508, 6.9511113166809),
  ('ESK', 'Enschede Kennispark', 52.23749923706, 6.8388891220093),
  ('EST', 'Elst', 51.916942596435, 5.8550000190735),
  ('ETN', 'Etten-Leur', 51.57500076294, 4.6358332633972),
  ('FN', 'Franeker', 53.1824488, 5.5483094),
  ('FWD', 'Feanwâlden', 53.2351834, 5.9886615),
  ('GBG', 'Gramsbergen', 52.60916519165, 6.6758332252502),
  ('GBR', 'Glanerbrug', 52.218612670898, 6.9744443893433),
  ('GD', 'Gouda', 52.017501831055, 4.7044444084167),
  ('GDG', 'Gouda Goverwelle', 52.014999389648, 4.7408332824707),
  ('GDM', 'Geldermalsen', 51.88301, 5.27127),
  ('GDR', 'Gaanderen', 51.93074, 6.3486),
  ('GERP', 'Groningen Europapark', 53.20480027, 6.5854178),
  ('GK', 'Grijpskerk', 53.255740325573, 6.3097786903381),
  ('GLN', 'Geleen Oost', 50.966945648193, 5.8430557250977),
  ('GN', 'Groningen', 53.210556030273, 6.5647220611572),
  ('GND', 'Hardinxveld-Giessendam', 51.830554962158, 4.8358335494995),
  ('GNN', 'Groningen Noord', 53.2301469, 6.5563172),
  ('GO', 'Goor', 52.230278015137, 6.5844445228577),
  ('GP', 'Geldrop', 51.419723510742, 5.5505557060242),
  ('GR', 'Gorinchem', 51.833889007568, 4.9683332443237),
  ('GS', 'Goes', 51.498054504395, 3.8905556201935),
  ('GV', 'Den Haag HS', 52.069721221924, 4.3225002288818),
  ('GVC', 'Den Haag Centraal', 52.080276489258, 4.3249998092651),
  ('GVM', 'Den Haag Mariahoeve', 52.090557098389, 4.3694443702698),
  ('GVMW', 'Den Haag Moerwijk', 52.053890228271, 4.3086109161377),
  ('GW', 'Grou-Jirnsum', 53.088890075684, 5.8225002288818),
  ('GZ', 'Gilze-Rijen', 51.583610534668, 4.9261112213135),
  ('HAD', 'Heemstede-Aerdenhout', 52.35916519165, 4.6066665649414),
  ('HB', 'Hoensbroek', 50.905555725098, 5.9305553436279),
  ('HBZM', 'Hardinxveld Blauwe Zoom', 51.82944, 4.81556),
  ('HD', 'Harderwijk', 52.337501525879, 5.619722366333),
  ('HDB', 'Hardenberg', 52.572776794434, 6.6286110877991),
  ('HDE', '''t Harde', 52.4091682, 5.893611),
  ('HDG', 'Hurdegaryp', 53.2187783, 5.934543),
  ('HDR', 'Den Helder', 52.955276489258, 4.7611112594605),
  ('HDRZ', 'Den Helder Zuid', 52.932498931885, 4.7641668319702),
  ('HFD', 'Hoofddorp', 52.293334960938, 4.7005553245544),
  ('HGL', 'Hengelo', 52.261665344238, 6.7938890457153),
  ('HGLG', 'Hengelo Gezondheidspark', 52.261667, 6.773611),
  ('HGLO', 'Hengelo Oost', 52.268890380859, 6.8194446563721),
  ('HGV', 'Hoogeveen', 52.733890533447, 6.4736108779907),
  ('HGZ', 'Hoogezand-Sappemeer', 53.159818131676, 6.7707538604736),
  ('HIL', 'Hillegom', 52.302501678467, 4.5655555725098),
  ('HK', 'Heemskerk', 52.495277404785, 4.6869444847107),
  ('HKS', 'Hoogkarspel', 52.69055557251, 5.1838889122009),
  ('HLG', 'Harlingen', 53.1704205, 5.4251932),
  ('HLGH', 'Harlingen Haven', 53.174917, 5.4112885),
  ('HLM', 'Haarlem', 52.38777923584, 4.6383333206177),
  ('HLMS', 'Haarlem Spaarnwoude', 52.382778167725, 4.6730556488037),
  ('HLO', 'Heiloo', 52.599445343018, 4.7005553245544),
  ('HM', 'Helmond', 51.475555419922, 5.6619443893433),
  ('HMBH', 'Helmond Brouwhuis', 51.47068, 5.70177),
  ('HMBV', 'Helmond Brandevoort', 51.462223052979, 5.6072220802307),
  ('HMH', 'Helmond ''t Hout', 51.46794, 5.63085),
  ('HMN', 'Hemmen-Dodewaard', 51.9222129, 5.6737254),
  ('HN', 'Hoorn', 52.644721984863, 5.0555553436279),
  ('HNK', 'Hoorn Kersenboogerd', 52.653610229492, 5.0855555534363),
  ('HNO', 'Heino', 52.427223205566, 6.2211112976074),
  ('HNP', 'Hindeloopen', 52.9464903, 5.423063),
  ('HON', 'Holten', 52.283889770508, 6.42027759552),
  ('HOR', 'Hollandsche Rading', 52.17777633667, 5.1791667938232),
  ('HR', 'Heerenveen', 52.961387634277, 5.9141664505005),
  ('HRL', 'Heerlen', 50.89083480835, 5.9749999046326),
  ('HRLW', 'Heerlen Woonboulevard', 50.896667, 5.952222),
  ('HRN', 'Haren', 53.176109313965, 6.6172223091125),
  ('HRNOVT', 'Haren OV Transferium', 53.170071, 6.592202),
  ('HRT', 'Horst-Sevenum', 51.426387786865, 6.0422220230103),
  ('HRY', 'Heerenveen IJsstadion', 52.935276031494, 5.9438886642456),
  ('HT', '''s-Hertogenbosch', 51.69048, 5.29362),
  ('HTN', 'Houten', 52.03402, 5.16821),
  ('HTNC', 'Houten Castellum', 52.01701, 5.17949),
  ('HTO', '''s-Hertogenbosch Oost', 51.700553894043, 5.3183331489563),
  ('HVL', 'Hoevelaken', 52.16652, 5.45718),
  ('HVS', 'Hilversum', 52.225833892822, 5.1819443702698),
  ('HVSM', 'Hilversum Media Park', 52.238056182861, 5.1738886833191),
  ('HVSP', 'Hilversum Sportpark', 52.216110229492, 5.1872220039368),
  ('HWD', 'Heerhugowaard', 52.669723510742, 4.8227777481079),
  ('HWZB', 'Halfweg-Zwanenburg', 52.385935, 4.747165),
  ('HZE', 'Heeze', 51.384998321533, 5.5694446563721),
  ('IJT', 'IJlst', 53.0146614, 5.6160801),
  ('KBD', 'Krabbendijke', 51.433334350586, 4.1169443130493),
  ('KBK', 'Klarenbeek', 52.17805480957, 6.0836110115051),
  ('KLP', 'Veenendaal-De Klomp', 52.045833587646, 5.5738887786865),
  ('KMA', 'Krommenie-Assendelft', 52.49511, 4.75417),
  ('KMR', 'Klimmen-Ransdaal', 50.866390228271, 5.8905553817749),
  ('KMW', 'Koudum-Molkwerum', 52.9028197, 5.4106913),
  ('KPN', 'Kampen', 52.559722900391, 5.9216666221619),
  ('KPNZ', 'Kampen Zuid', 52.5331, 5.91309),
  ('KRD', 'Kerkrade Centrum', 50.861667633057, 6.0574998855591),
  ('KRG', 'Kruiningen-Yerseke', 51.465000152588, 4.0372223854065),
  ('KTR', 'Kesteren', 51.9313869, 5.5833465),
  ('KW', 'Kropswolde', 53.1617362, 6.7220882),
  ('KZ', 'Koog aan de Zaan', 52.458610534668, 4.8055553436279),
  ('LAA', 'Den Haag Laan v NOI', 52.078609466553, 4.3427777290344),
  ('LC', 'Lochem', 52.166667938232, 6.4263887405395),
  ('LDL', 'Leiden Lammenschans', 52.146945953369, 4.4924998283386),
  ('LDM', 'Leerdam', 51.894721984863, 5.0913887023926),
  ('LEDN', 'Leiden Centraal', 52.166110992432, 4.4816665649414),
  ('LG', 'Landgraaf', 50.896389007568, 6.019166469574),
  ('LLS', 'Lelystad Centrum', 52.507778167725, 5.4727778434753),
  ('LLZM', 'Lansingerland-Zoetermeer', 52.042222, 4.517222),
  ('LP', 'Loppersum', 53.3347145, 6.7472625),
  ('LTN', 'Lunteren', 52.085277557373, 5.6244444847107),
  ('LTV', 'Lichtenvoorde-Groenlo', 52.01188, 6.59641),
  ('LUT', 'Geleen-Lutterade', 50.975555419922, 5.8247222900391),
  ('LW', 'Leeuwarden', 53.195835113525, 5.7922220230103),
  ('LWC', 'Leeuwarden Camminghaburen', 53.2021808, 5.8422968),
  ('MAS', 'Maarssen', 52.135276794434, 5.0336112976074),
  ('MDB', 'Middelburg', 51.494720458984, 3.6172223091126),
  ('MES', 'Meerssen', 50.882879392551, 5.7509994506836),
  ('MG', 'Mantgum', 53.1296368, 5.7131996),
  ('MMLH', 'Mook Molenhoek', 51.766262, 5.879133),
  ('MP', 'Meppel', 52.69083404541, 6.1975002288818),
  ('MRB', 'Mariënberg', 52.50944519043, 6.5752778053284),
  ('MRN', 'Maarn', 52.064167022705, 5.3699998855591),
  ('MT', 'Maastricht', 50.850276947021, 5.7055554389954),
  ('MTH', 'Martenshoek', 53.1607232, 6.7402989),
  ('MTN', 'Maastricht Noord', 50.87087, 5.71774),
  ('MTR', 'Maastricht Randwyck', 50.838611602783, 5.7172222137451),
  ('MZ', 'Maarheeze', 51.30376236035, 5.6303429603577),
  ('NA', 'Nieuw Amsterdam', 52.718612670898, 6.8486108779907),
  ('NDB', 'Naarden-Bussum', 52.280277252197, 5.1569442749023),
  ('NH', 'Nuth', 50.919445037842, 5.8927779197693),
  ('NKK', 'Nijkerk', 52.222221374512, 5.4938888549805),
  ('NM', 'Nijmegen', 51.843612670898, 5.8522224426269),
  ('NMD', 'Nijmegen Dukenburg', 51.824165344238, 5.7955555915833),
  ('NMGO', 'Nijmegen Goffert', 51.8273, 5.822722),
  ('NMH', 'Nijmegen Heyendaal', 51.826946258545, 5.8674998283386),
  ('NML', 'Nijmegen Lent', 51.863154, 5.859625),
  ('NS', 'Nunspeet', 52.370834350586, 5.7852778434753),
  ('NSCH', 'Bad Nieuweschans', 53.1844, 7.19937),
  ('NVD', 'Nijverdal', 52.366111, 6.462),
  ('NVP', 'Nieuw Vennep', 52.258888244629, 4.6455554962158),
  ('NWK', 'Nieuwerkerk a/d IJssel', 51.965278625488, 4.6169443130493),
  ('O', 'Oss', 51.765556335449, 5.5322222709656),
  ('OBD', 'Obdam', 52.67805480957, 4.9072222709656),
  ('ODB', 'Oudenbosch', 51.587776184082, 4.5333333015442),
  ('ODZ', 'Oldenzaal', 52.30638885498, 6.9347224235535),
  ('OMN', 'Ommen', 52.50944519043, 6.4158334732056),
  ('OP', 'Opheusden', 51.9261615, 5.6371145),
  ('OST', 'Olst', 52.334720611572, 6.1130557060242),
  ('OT', 'Oisterwijk', 51.582221984863, 5.1941666603088),
  ('OTB', 'Oosterbeek', 51.994998931885, 5.8400001525879),
  ('OVN', 'Overveen', 52.391109466553, 4.6061110496521),
  ('OW', 'Oss West', 51.758056640625, 5.5055556297302),
  ('PMO', 'Purmerend Overwhere', 52.511390686035, 4.9683332443237),
  ('PMR', 'Purmerend', 52.50305557251, 4.9536108970642),
  ('PMW', 'Purmerend Weidevenne', 52.496590632542, 4.9356293678284),
  ('PT', 'Putten', 52.264999389648, 5.5752778053284),
  ('RAI', 'Amsterdam RAI', 52.337223052979, 4.8902778625488),
  ('RAT', 'Raalte', 52.391666412354, 6.2775001525879),
  ('RB', 'Rilland-Bath', 51.422779083252, 4.1611108779907),
  ('RD', 'Roodeschool', 53.421262, 6.7587),
  ('RH', 'Rheden', 52.0101, 6.0314),
  ('RHN', 'Rhenen', 51.958610534668, 5.5783333778381),
  ('RL', 'Ruurlo', 52.0810888, 6.4492656),
  ('RLB', 'Rotterdam Lombardijen', 51.880001068115, 4.531388759613),
  ('RM', 'Roermond', 51.193054199219, 5.9941668510437),
  ('RS', 'Rosmalen', 51.714721679688, 5.3680553436279),
  ('RSD', 'Roosendaal', 51.540279388428, 4.4583334922791),
  ('RSN', 'Rijssen', 52.3122215271, 6.5202779769897),
  ('RSW', 'Rijswijk', 52.039722442627, 4.3191666603088),
  ('RTA', 'Rotterdam Alexander', 51.951946258545, 4.5536112785339),
  ('RTB', 'Rotterdam Blaak', 51.920276641846, 4.4888887405395),
  ('RTD', 'Rotterdam Centraal', 51.92499923706, 4.468888759613),
  ('RTN', 'Rotterdam Noord', 51.942222595215, 4.4816665649414),
  ('RTST', 'Rotterdam Stadion', 51.893890380859, 4.5197219848633),
  ('RTZ', 'Rotterdam Zuid', 51.904445648193, 4.5102777481079),
  ('RV', 'Reuver', 51.28321916653, 6.0789585113525),
  ('RVS', 'Ravenstein', 51.794166564941, 5.6358332633972),
  ('SBK', 'Spaubeek', 50.94327, 5.850529),
  ('SD', 'Soestdijk', 52.183612823486, 5.3000001907349),
  ('SDA', 'Scheemda', 53.1655362, 6.9777775),
  ('SDM', 'Schiedam Centrum', 51.921243812803, 4.4089937210083),
  ('SDT', 'Sliedrecht', 51.829723358154, 4.7783331871033),
  ('SDTB', 'Sliedrecht Baanhoek', 51.829722, 4.743333),
  ('SGL', 'Houthem-St. Gerlach', 50.873332977295, 5.7972221374512),
  ('SGN', 'Schagen', 52.784442901611, 4.8052778244019),
  ('SHL', 'Schiphol Airport', 52.30944442749, 4.7619442939758),
  ('SK', 'Sneek', 53.0328688, 5.6523969),
  ('SKND', 'Sneek Noord', 53.0409319, 5.6631808),
  ('SM', 'Swalmen', 51.23582, 6.03228),
  ('SN', 'Schinnen', 50.939167022705, 5.8744444847107),
  ('SOG', 'Schin op Geul', 50.856388092041, 5.8722224235535),
  ('SPM', 'Sappemeer Oost', 53.1589183, 6.7955648),
  ('SPTN', 'Santpoort Noord', 52.43388748169, 4.6325001716614),
  ('SPTZ', 'Santpoort Zuid', 52.419723510742, 4.6313886642456),
  ('SRN', 'Susteren', 51.061389923096, 5.8630557060242),
  ('SSH', 'Sassenheim', 52.215278, 4.517222),
  ('ST', 'Soest', 52.173332214355, 5.3099999427795),
  ('STD', 'Sittard', 51.001667022705, 5.8586111068726),
  ('STM', 'Stedum', 53.3262092, 6.6875551),
  ('STV', 'Stavoren', 52.8865535, 5.3600212),
  ('STZ', 'Soest Zuid', 52.165279388428, 5.3030557632446),
  ('SWD', 'Sauwerd', 53.29113, 6.5404),
  ('SWK', 'Steenwijk', 52.791510992432, 6.1145557632446),
  ('TB', 'Tilburg', 51.560554504395, 5.0836110115051),
  ('TBG', 'Terborg', 51.9224549, 6.3642466),
  ('TBR', 'Tilburg Reeshof', 51.573612213135, 4.9944443702698),
  ('TBU', 'Tilburg Universiteit', 51.564985, 5.051778),
  ('TG', 'Tegelen', 51.33894, 6.14253),
  ('TL', 'Tiel', 51.889446258545, 5.4222221374512),
  ('TPSW', 'Tiel Passewaaij', 51.873889923096, 5.39222240448),
  ('TWL', 'Twello', 52.237777709961, 6.0986108779907),
  ('UHM', 'Uithuizermeeden', 53.4145845, 6.7202975),
  ('UHZ', 'Uithuizen', 53.4099568, 6.6748869),
  ('UST', 'Usquert', 53.4014742, 6.6093776),
  ('UT', 'Utrecht Centraal', 52.088890075684, 5.1102776527405),
  ('UTG', 'Uitgeest', 52.521667480469, 4.7016668319702),
  ('UTLN', 'Utrecht Lunetten', 52.06555557251, 5.144166469574),
  ('UTLR', 'Utrecht Leidsche Rijn', 52.09896, 5.06523),
  ('UTM', 'Utrecht Maliebaan', 52.087776184082, 5.1313886642456),
  ('UTO', 'Utrecht Overvecht', 52.110000610352, 5.1247220039368),
  ('UTT', 'Utrecht Terwijde', 52.1000753, 5.0439547),
  ('UTVR', 'Utrecht Vaartsche Rijn', 52.078889, 5.121667),
  ('UTZL', 'Utrecht Zuilen', 52.103055, 5.09),
  ('VB', 'Voorburg', 52.066665649414, 4.3594446182251),
  ('VD', 'Vorden', 52.1071949, 6.3170457),
  ('VDL', 'Voerendaal', 50.887222290039, 5.9302778244019),
  ('VDM', 'Veendam', 53.10324, 6.88475),
  ('VEM', 'Voorst-Empe', 52.157501220703, 6.1436109542847),
  ('VG', 'Vught', 51.655555725098, 5.2919445037842),
  ('VH', 'Voorhout', 52.224445343018, 4.4844446182251),
  ('VHP', 'Vroomshoop', 52.4571921, 6.5696679),
  ('VK', 'Valkenburg', 50.869720458984, 5.8322219848633),
  ('VL', 'Venlo', 51.363609313965, 6.1727776527405),
  ('VLB', 'Vierlingsbeek', 51.59193, 5.99714),
  ('VMW', 'Amsterdam Van der Madeweg', 52.330134, 4.92975),
  ('VNDC', 'Veenendaal Centrum', 52.020000457764, 5.548611164093),
  ('VNDW', 'Veenendaal West', 52.028057098389, 5.531388759613),
  ('VP', 'Velp', 51.994720458984, 5.9802780151367),
  ('VRY', 'Venray', 51.526568099007, 6.0141777992248),
  ('VS', 'Vlissingen', 51.445835113525, 3.5952777862549),
  ('VSS', 'Vlissingen Souburg', 51.464721679688, 3.5952777862549),
  ('VST', 'Voorschoten', 52.1252784729, 4.4324998855591),
  ('VSV', 'Varsseveld', 51.937257, 6.458839),
  ('VTN', 'Vleuten', 52.103056, 5.007404),
  ('VZ', 'Vriezenveen', 52.40203, 6.60041),
  ('WAD', 'Waddinxveen', 52.044166564941, 4.6497220993042),
  ('WADN', 'Waddinxveen Noord', 52.055000305176, 4.6483335494995),
  ('WADT', 'Waddinxveen Triangel', 52.02725, 4.6491),
  ('WC', 'Wijchen', 51.811668395996, 5.730833530426),
  ('WD', 'Woerden', 52.084999084473, 4.8936109542847),
  ('WDN', 'Wierden', 52.361389160156, 6.5916666984558),
  ('WF', 'Wolfheze', 52.005554199219, 5.7936110496521),
  ('WFM', 'Warffum', 53.3908431, 6.5671364),
  ('WH', 'Wijhe', 52.390277862549, 6.1405553817749),
  ('WK', 'Workum', 52.9724864, 5.4564285),
  ('WL', 'Wehl', 51.9578065, 6.213844),
  ('WM', 'Wormerveer', 52.489166259766, 4.7922220230103),
  ('WP', 'Weesp', 52.3127784729, 5.0430555343628),
  ('WS', 'Winschoten', 53.1392377, 7.035101),
  ('WSM', 'Winsum', 53.3300994, 6.5202905),
  ('WT', 'Weert', 51.248611450195, 5.7036108970642),
  ('WTV', 'Westervoort', 51.96286, 5.9695),
  ('WV', 'Wolvega', 52.880832672119, 6.0036110877991),
  ('WW', 'Winterswijk', 51.9677307, 6.7155181),
  ('WWW', 'Winterswijk West', 51.97453, 6.70417),
  ('WZ', 'Wezep', 52.454166412354, 6.0025000572205),
  ('YPB', 'Den Haag Ypenburg', 52.055278778076, 4.39222240448),
  ('ZA', 'Zetten-Andelst', 51.920056, 5.7228408),
  ('ZB', 'Zuidbroek', 53.159612280006, 6.8679141998291),
  ('ZBM', 'Zaltbommel', 51.80888748169, 5.2633333206177),
  ('ZD', 'Zaandam', 52.438888549805, 4.8136110305786),
  ('ZDK', 'Zaandam Kogerveld', 52.456665039062, 4.8202776908875),
  ('ZH', 'Zuidhorn', 53.2486292, 6.4062361),
  ('ZL', 'Zwolle', 52.504722595215, 6.0919442176819),
  ('ZLSH', 'Zwolle Stadshagen', 52.52764, 6.05146),
  ('ZLW', 'Lage Zwaluwe', 51.69111251831, 4.6630554199219),
  ('ZP', 'Zutphen', 52.145278930664, 6.1941666603088),
  ('ZTM', 'Zoetermeer', 52.047500610352, 4.4772224426269),
  ('ZTMO', 'Zoetermeer Oost', 52.046390533447, 4.4927778244019),
  ('ZV', 'Zevenaar', 51.923053741455, 6.0719442367554),
  ('ZVB', 'Zevenbergen', 51.64042, 4.60904),
  ('ZVT', 'Zandvoort aan Zee', 52.3752784729, 4.5327777862549),
  ('ZWD', 'Zwijndrecht', 51.814998626709, 4.6416668891907),
  ('ZZS', 'Zaandijk Zaanse Schans', 52.469165802002, 4.8049998283386)
;

alter table app_public.rail_disruptions add column if not exists delisted_at timestamptz;
comment on column app_public.rail_disruptions.delisted_at is 'When the source''s list stopped holding the item (null while it holds it): planned works delisted before they began were withdrawn, and the calendars show them cancelled.';

create or replace function app_private.ingest_rail_disruptions(items jsonb, source text) returns jsonb
  language plpgsql
  set search_path to pg_catalog, public, pg_temp
as $$
declare
  inserted integer;
  updated integer;
  ended integer;
begin
  perform pg_advisory_xact_lock(hashtext('rail_disruptions'));
  drop table if exists pg_temp.incoming_rail;
  create temporary table pg_temp.incoming_rail on commit drop as
    select distinct on (d.kind, d.source_id) d.*
      from jsonb_to_recordset(items) as d (kind text, source_id text, title text, description text, active boolean,
             start_at timestamptz, end_at timestamptz, station_codes text[])
     order by d.kind, d.source_id;
  with written as (
    insert into app_public.rail_disruptions as t (kind, source_id, title, description, active, start_at, end_at, station_codes)
    select i.kind, i.source_id, i.title, i.description, i.active, i.start_at, i.end_at, i.station_codes from pg_temp.incoming_rail i
    on conflict (kind, source_id) do update set title = excluded.title, description = excluded.description, active = excluded.active,
      start_at = excluded.start_at, end_at = excluded.end_at, station_codes = excluded.station_codes, delisted_at = null,
      changed = now()
    where (t.title, t.description, t.active, t.start_at, t.end_at, t.station_codes, t.delisted_at)
          is distinct from (excluded.title, excluded.description, excluded.active, excluded.start_at, excluded.end_at, excluded.station_codes,
                            null)
    returning (xmax = 0) as was_inserted
  )
  select count(*) filter (where was_inserted), count(*) filter (where not was_inserted) into inserted, updated from written;
  -- What the list no longer holds: an active item ends, and every item is marked delisted once.
  with gone as (
    update app_public.rail_disruptions t set active = false, delisted_at = now(),
           changed = case when o.active then now() else t.changed end
      from app_public.rail_disruptions o
     where o.uuid = t.uuid and t.delisted_at is null
       and not exists (select 1 from pg_temp.incoming_rail i where i.kind = t.kind and i.source_id = t.source_id)
    returning o.active as was_active
  )
  select count(*) filter (where was_active) into ended from gone;
  return jsonb_build_object('items', jsonb_array_length(items), 'inserted', inserted, 'updated', updated, 'ended', ended,
    'source', left(source, 200));
end;
$$;
comment on function app_private.ingest_rail_disruptions(items jsonb, source text) is 'Stores the railway disruption source''s whole list: items inserted, or updated when they changed; an item the list no longer holds is marked delisted (delisted_at) once, and an active one becomes inactive. An item that comes back is listed again.';

create function app_private.rail_station_provinces(codes text[]) returns text[]
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select coalesce(array_agg(distinct substr(k.key, 10) order by substr(k.key, 10)), '{}')
    from app_private.rail_stations s
   cross join lateral unnest(app_hidden.point_area_keys(s.latitude, s.longitude)) k (key)
   where s.code = any (codes) and k.key like 'province:%'
$$;
comment on function app_private.rail_station_provinces(codes text[]) is 'The provinces (nl_provinces codes, sorted) in which any of these NS stations lies: the province whose loaded outline holds the station (app_hidden.point_area_keys). Where planned railway works belong in the province calendars.';

create function app_private.calendar_rail_item(d app_public.rail_disruptions) returns jsonb
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select jsonb_build_object(
    'kind', 'rail', 'id', d.kind || ':' || d.source_id, 'railKind', d.kind, 'title', d.title, 'description', d.description,
    'startsAt', d.start_at, 'endsAt', d.end_at,
    'stations', array(select s.name from unnest(d.station_codes) with ordinality c (code, n)
                        join app_private.rail_stations s on s.code = c.code order by c.n),
    'provinces', array(select p.name from app_public.nl_provinces p
                        where p.code = any (app_private.rail_station_provinces(d.station_codes)) order by p.sort_order),
    -- Withdrawn: the source stopped listing the works before they began.
    'cancelled', d.delisted_at is not null and d.delisted_at < d.start_at,
    'lastModified', greatest(d.changed, d.delisted_at),
    -- Seconds from first sight to the last change: grows with every change, as SEQUENCE must.
    'sequence', floor(extract(epoch from greatest(d.changed, d.delisted_at) - d.first_seen_at))::integer)
$$;
comment on function app_private.calendar_rail_item(d app_public.rail_disruptions) is 'A railway disruption or planned work as a calendar event: its upstream key (kind:source_id, the UID''s root), title, text, period, station names and provinces, whether it was withdrawn (delisted before its start), its last change and a SEQUENCE that grows with every change (seconds from first sight to the last change).';

create function app_private.calendar_meteo_periods(window_from timestamptz, window_to timestamptz) returns setof jsonb
  language sql stable parallel safe
  set search_path to pg_catalog, public, pg_temp
as $$
  select jsonb_build_object(
    'kind', 'meteo', 'id', concat_ws(':', pr.code, p.phenomenon, l.value, to_char(p.period_from at time zone 'UTC', 'YYYYMMDD"T"HH24"Z"')),
    'provinceCode', pr.code, 'province', pr.name, 'phenomenon', p.phenomenon, 'phenomenonLabel', coalesce(ph.label, p.phenomenon),
    'level', l.value, 'levelLabel', l.label, 'description', p.description, 'startsAt', p.period_from, 'endsAt', p.period_to,
    'lastModified', m.received_at,
    -- Seconds from three days before the period (no 48-hour document is older) to the newest
    -- document that wrote it: a later document gives a higher SEQUENCE.
    'sequence', greatest(0, floor(extract(epoch from m.received_at - (p.period_from - interval '3 days'))))::integer)
    from app_hidden.meteo_periods(window_from, window_to) p
    join app_public.meteo_provinces pr on pr.uuid = p.province_uuid
    join app_public.meteo_levels l on l.status_code = p.status
    left join app_public.meteo_phenomena ph on ph.id = p.phenomenon
   cross join lateral (
     select max(d.received_at) as received_at
       from app_public.meteo_warning_slices s join app_hidden.meteo_documents d on d.uuid = s.document_uuid
      where s.province_uuid = p.province_uuid and s.phenomenon = p.phenomenon and s.status = p.status
        and s.hour >= p.period_from and s.hour < p.period_to) m
   order by p.period_from, pr.sort_order, ph.sort_order, p.phenomenon
$$;
comment on function app_private.calendar_meteo_periods(window_from timestamptz, window_to timestamptz) is 'The weather warning periods (app_hidden.meteo_periods: runs of hours of one province, phenomenon and level) overlapping a window, as calendar events: a key of province, phenomenon, level and first hour (the UID''s root; a period that grows keeps it), the Dutch labels, the advice of its first hour, and as last change the newest document that wrote its hours. A period a newer document withdrew is gone from the slices, so it is gone from here.';

create function app_private.province_calendar(province text, window_from timestamptz, window_to timestamptz)
  returns table (code text, name text, events jsonb)
  language sql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  with place as (
    select p.code, p.name from app_public.nl_provinces p where p.code = province_calendar.province
    union all
    select null, 'Nederland' where province_calendar.province is null
  )
  select place.code, place.name, coalesce((
    select jsonb_agg(e.item order by e.item->>'startsAt', e.item->>'id') from (
      select app_private.calendar_rail_item(d) as item
        from app_public.rail_disruptions d
       where d.kind = 'maintenance' and d.start_at < window_to and coalesce(d.end_at, d.start_at) >= window_from
         and (place.code is null or place.code = any (app_private.rail_station_provinces(d.station_codes)))
      union all
      select x from app_private.calendar_meteo_periods(window_from, window_to) x
       where place.code is null or x->>'provinceCode' = place.code) e), '[]')
    from place
$$;
grant execute on function app_private.province_calendar(province text, window_from timestamptz, window_to timestamptz) to app_authenticator;
comment on function app_private.province_calendar(province text, window_from timestamptz, window_to timestamptz) is 'The calendar of a province (an nl_provinces code; null = the whole country), for GET /calendars/provinces/<code>.ics and /calendars/netherlands.ics (lib/open-data/calendars/): planned railway works with a station in it (the country: all) and the weather warning periods of its province, overlapping the window, as calendar events (app_private.calendar_rail_item, app_private.calendar_meteo_periods). No row for an unknown code. Called by the authenticator, which reads no table, hence SECURITY DEFINER; public data only.';

create function app_private.monitor_calendar(secret_hash bytea, window_from timestamptz, window_to timestamptz)
  returns table (feed_uuid uuid, name text, language text, events jsonb)
  language sql stable security definer
  set search_path to pg_catalog, public, pg_temp
as $$
  with feed as (
    select t.monitor_uuid, t.feed_uuid, m.name, coalesce(m.notification_rules->>'language', 'nl') as language
      from app_private.monitor_feed_tokens t join app_public.monitors m on m.uuid = t.monitor_uuid
     where t.secret_hash = monitor_calendar.secret_hash
  ), matched as (
    -- Whatever matched, told or held back by quiet hours: the calendar shows what is planned, not
    -- what notified. Planned works match when first seen, months ahead, hence the long look back.
    select fm.event_kind as kind, fm.event_uuid as uuid
      from feed, app_hidden.feed_monitor_matches fm
     where fm.monitor_uuid = feed.monitor_uuid and fm.event_kind in ('rail', 'meteo', 'nl_alert')
       and fm.matched_at >= window_from - interval '180 days'
  ), items as (
    select app_private.calendar_rail_item(d) as item
      from matched x join app_public.rail_disruptions d on x.kind = 'rail' and d.uuid = x.uuid
     where d.start_at < window_to and coalesce(d.end_at, d.start_at) >= window_from
    union all
    select jsonb_build_object(
             'kind', 'meteo_event', 'id', e.uuid, 'provinceCode', p.code, 'province', p.name, 'level', e.level,
             'levelLabel', l.label, 'phenomena', e.phenomena,
             'phenomenonLabels', array(select coalesce(ph.label, x) from unnest(e.phenomena) with ordinality u (x, n)
                                         left join app_public.meteo_phenomena ph on ph.id = u.x order by u.n),
             'startsAt', e.period_from, 'endsAt', e.period_to, 'lastModified', e.created, 'sequence', 0)
      from matched x join app_public.meteo_warning_events e on x.kind = 'meteo' and e.uuid = x.uuid
      join app_public.meteo_provinces p on p.uuid = e.province_uuid
      join app_public.meteo_levels l on l.status_code = e.status_code
     where e.period_from < window_to and e.period_to >= window_from
    union all
    select jsonb_build_object(
             'kind', 'nl_alert', 'id', a.alert_id, 'title', btrim(split_part(a.message, '***', 1)),
             'description', a.message, 'areas', a.area_texts, 'link', a.resource_uri,
             'startsAt', a.start_at, 'endsAt', a.stop_at, 'lastModified', a.changed,
             'sequence', floor(extract(epoch from a.changed - a.first_seen_at))::integer)
      from matched x join app_public.nl_alerts a on x.kind = 'nl_alert' and a.uuid = x.uuid
     where a.start_at < window_to and coalesce(a.stop_at, 'infinity') >= window_from
  )
  select feed.feed_uuid, feed.name, feed.language,
         coalesce((select jsonb_agg(i.item order by i.item->>'startsAt', i.item->>'id')
                     from (select i.item from items i order by i.item->>'startsAt' desc limit 500) i), '[]')
    from feed
$$;
grant execute on function app_private.monitor_calendar(secret_hash bytea, window_from timestamptz, window_to timestamptz) to app_authenticator;
comment on function app_private.monitor_calendar(secret_hash bytea, window_from timestamptz, window_to timestamptz) is 'The calendar of the monitor whose feed secret has this SHA-256, for GET /feeds/monitors/<secret>.ics (lib/monitors/feed-route.ts): its feed id, name and language, and what it matched (told or held back) that has a period overlapping the window: railway disruptions and works (app_private.calendar_rail_item), weather warning events with their warned period, NL-Alerts from start to stop; at most the 500 latest to start. No row for an unknown or revoked secret. Called by the authenticator, which reads no table, hence SECURITY DEFINER; nothing else of the monitor or its environment leaves it.';
