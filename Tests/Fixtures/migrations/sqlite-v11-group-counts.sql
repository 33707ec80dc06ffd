CREATE TABLE groupCount (
    signature TEXT PRIMARY KEY NOT NULL,
    reports INTEGER NOT NULL,
    withTrail INTEGER NOT NULL,
    inferred INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE groupVersionCount (
    signature TEXT NOT NULL,
    known INTEGER NOT NULL,
    version TEXT NOT NULL,
    reports INTEGER NOT NULL,
    PRIMARY KEY (signature, known, version)
) WITHOUT ROWID;
CREATE TABLE groupDayCount (
    signature TEXT NOT NULL,
    day TEXT NOT NULL,
    reports INTEGER NOT NULL,
    PRIMARY KEY (signature, day)
) WITHOUT ROWID;
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, SUM(s), SUM(CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END),
    SUM(CASE WHEN src = 'inferred' THEN s ELSE 0 END)
FROM (SELECT signature, appVersion, time, trailSource AS src, 1 AS s
FROM reportWithTrail) WHERE true GROUP BY signature
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
INSERT INTO groupVersionCount (signature, known, version, reports)
SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), SUM(s)
FROM (SELECT signature, appVersion, time, trailSource AS src, 1 AS s
FROM reportWithTrail) WHERE true GROUP BY 1, 2, 3
ON CONFLICT (signature, known, version) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupDayCount (signature, day, reports)
SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, SUM(s)
FROM (SELECT signature, appVersion, time, trailSource AS src, 1 AS s
FROM reportWithTrail) WHERE true GROUP BY 1, 2
ON CONFLICT (signature, day) DO UPDATE SET reports = reports + excluded.reports;
CREATE TRIGGER report_counted_insert AFTER INSERT ON report BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT NEW.signature AS signature, NEW.appVersion AS appVersion, NEW.time AS time, NEW.trailSource AS src, 1 AS s) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
INSERT INTO groupVersionCount (signature, known, version, reports)
SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), s
FROM (SELECT NEW.signature AS signature, NEW.appVersion AS appVersion, NEW.time AS time, NEW.trailSource AS src, 1 AS s) WHERE true
ON CONFLICT (signature, known, version) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupDayCount (signature, day, reports)
SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, s
FROM (SELECT NEW.signature AS signature, NEW.appVersion AS appVersion, NEW.time AS time, NEW.trailSource AS src, 1 AS s) WHERE true
ON CONFLICT (signature, day) DO UPDATE SET reports = reports + excluded.reports;
END;
CREATE TRIGGER report_counted_delete BEFORE DELETE ON report BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT OLD.signature AS signature, OLD.appVersion AS appVersion, OLD.time AS time,
    CASE WHEN j.id IS NULL THEN OLD.trailSource ELSE 'joined' END AS src, -1 AS s
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = OLD.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
INSERT INTO groupVersionCount (signature, known, version, reports)
SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), s
FROM (SELECT OLD.signature AS signature, OLD.appVersion AS appVersion, OLD.time AS time,
    CASE WHEN j.id IS NULL THEN OLD.trailSource ELSE 'joined' END AS src, -1 AS s
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = OLD.id) WHERE true
ON CONFLICT (signature, known, version) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupDayCount (signature, day, reports)
SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, s
FROM (SELECT OLD.signature AS signature, OLD.appVersion AS appVersion, OLD.time AS time,
    CASE WHEN j.id IS NULL THEN OLD.trailSource ELSE 'joined' END AS src, -1 AS s
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = OLD.id) WHERE true
ON CONFLICT (signature, day) DO UPDATE SET reports = reports + excluded.reports;
END;
CREATE TRIGGER report_counted_update AFTER UPDATE ON report WHEN OLD.id IS NOT NEW.id OR OLD.signature IS NOT NEW.signature
    OR OLD.appVersion IS NOT NEW.appVersion OR OLD.time IS NOT NEW.time OR OLD.trailSource IS NOT NEW.trailSource BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT OLD.signature AS signature, OLD.appVersion AS appVersion, OLD.time AS time,
    CASE WHEN j.id IS NULL THEN OLD.trailSource ELSE 'joined' END AS src, -1 AS s
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = OLD.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
INSERT INTO groupVersionCount (signature, known, version, reports)
SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), s
FROM (SELECT OLD.signature AS signature, OLD.appVersion AS appVersion, OLD.time AS time,
    CASE WHEN j.id IS NULL THEN OLD.trailSource ELSE 'joined' END AS src, -1 AS s
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = OLD.id) WHERE true
ON CONFLICT (signature, known, version) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupDayCount (signature, day, reports)
SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, s
FROM (SELECT OLD.signature AS signature, OLD.appVersion AS appVersion, OLD.time AS time,
    CASE WHEN j.id IS NULL THEN OLD.trailSource ELSE 'joined' END AS src, -1 AS s
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = OLD.id) WHERE true
ON CONFLICT (signature, day) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT NEW.signature AS signature, NEW.appVersion AS appVersion, NEW.time AS time,
    CASE WHEN j.id IS NULL THEN NEW.trailSource ELSE 'joined' END AS src, 1 AS s
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = NEW.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
INSERT INTO groupVersionCount (signature, known, version, reports)
SELECT signature, CASE WHEN appVersion IS NULL THEN 0 ELSE 1 END, COALESCE(appVersion, ''), s
FROM (SELECT NEW.signature AS signature, NEW.appVersion AS appVersion, NEW.time AS time,
    CASE WHEN j.id IS NULL THEN NEW.trailSource ELSE 'joined' END AS src, 1 AS s
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = NEW.id) WHERE true
ON CONFLICT (signature, known, version) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupDayCount (signature, day, reports)
SELECT signature, CASE WHEN time IS NULL THEN 'unknown' ELSE substr(time, 1, 10) END, s
FROM (SELECT NEW.signature AS signature, NEW.appVersion AS appVersion, NEW.time AS time,
    CASE WHEN j.id IS NULL THEN NEW.trailSource ELSE 'joined' END AS src, 1 AS s
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = NEW.id) WHERE true
ON CONFLICT (signature, day) DO UPDATE SET reports = reports + excluded.reports;
END;
CREATE TRIGGER joined_counted_insert AFTER INSERT ON joinedTrail BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, r.trailSource AS src, -1 AS s
FROM report r WHERE r.id = NEW.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, 'joined' AS src, 1 AS s
FROM report r WHERE r.id = NEW.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
END;
CREATE TRIGGER joined_counted_delete AFTER DELETE ON joinedTrail BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, 'joined' AS src, -1 AS s
FROM report r WHERE r.id = OLD.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, r.trailSource AS src, 1 AS s
FROM report r WHERE r.id = OLD.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
END;
CREATE TRIGGER joined_counted_update AFTER UPDATE ON joinedTrail WHEN OLD.id IS NOT NEW.id BEGIN
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, 'joined' AS src, -1 AS s
FROM report r WHERE r.id = OLD.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, r.trailSource AS src, 1 AS s
FROM report r WHERE r.id = OLD.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, r.trailSource AS src, -1 AS s
FROM report r WHERE r.id = NEW.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
INSERT INTO groupCount (signature, reports, withTrail, inferred)
SELECT signature, s, CASE WHEN src IN ('embedded', 'joined', 'inferred') THEN s ELSE 0 END,
    CASE WHEN src = 'inferred' THEN s ELSE 0 END
FROM (SELECT r.signature AS signature, r.appVersion AS appVersion, r.time AS time, 'joined' AS src, 1 AS s
FROM report r WHERE r.id = NEW.id) WHERE true
ON CONFLICT (signature) DO UPDATE SET reports = reports + excluded.reports,
    withTrail = withTrail + excluded.withTrail, inferred = inferred + excluded.inferred;
END