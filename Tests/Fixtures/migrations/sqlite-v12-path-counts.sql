CREATE TABLE groupPathCount (
    signature TEXT NOT NULL,
    bundleID TEXT NOT NULL,
    inferred INTEGER NOT NULL,
    screenPath TEXT NOT NULL,
    pathManifest TEXT NOT NULL,
    reports INTEGER NOT NULL,
    PRIMARY KEY (signature, bundleID, inferred, screenPath, pathManifest)
) WITHOUT ROWID;
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), 1 FROM (SELECT signature, bundleID, trailSource, screenPath, pathManifest FROM reportWithTrail) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
CREATE TRIGGER report_paths_insert AFTER INSERT ON report BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), 1 FROM (SELECT NEW.signature AS signature, NEW.bundleID AS bundleID, NEW.trailSource AS trailSource,
    NEW.screenPath AS screenPath, NEW.pathManifest AS pathManifest) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
END;
CREATE TRIGGER report_paths_delete BEFORE DELETE ON report BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), -1 FROM (SELECT OLD.signature AS signature, OLD.bundleID AS bundleID,
    CASE WHEN j.id IS NULL THEN OLD.trailSource ELSE 'joined' END AS trailSource,
    CASE WHEN j.id IS NULL THEN OLD.screenPath ELSE j.screenPath END AS screenPath,
    CASE WHEN j.id IS NULL THEN OLD.pathManifest ELSE j.pathManifest END AS pathManifest
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = OLD.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
DELETE FROM groupPathCount WHERE reports = 0
    AND (signature, bundleID, inferred, screenPath, pathManifest) IN (SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, '') FROM (SELECT OLD.signature AS signature, OLD.bundleID AS bundleID,
    CASE WHEN j.id IS NULL THEN OLD.trailSource ELSE 'joined' END AS trailSource,
    CASE WHEN j.id IS NULL THEN OLD.screenPath ELSE j.screenPath END AS screenPath,
    CASE WHEN j.id IS NULL THEN OLD.pathManifest ELSE j.pathManifest END AS pathManifest
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = OLD.id) AS src);
END;
CREATE TRIGGER report_paths_update AFTER UPDATE ON report WHEN OLD.id IS NOT NEW.id OR OLD.signature IS NOT NEW.signature
    OR OLD.bundleID IS NOT NEW.bundleID OR OLD.trailSource IS NOT NEW.trailSource
    OR OLD.screenPath IS NOT NEW.screenPath OR OLD.pathManifest IS NOT NEW.pathManifest BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), -1 FROM (SELECT OLD.signature AS signature, OLD.bundleID AS bundleID,
    CASE WHEN j.id IS NULL THEN OLD.trailSource ELSE 'joined' END AS trailSource,
    CASE WHEN j.id IS NULL THEN OLD.screenPath ELSE j.screenPath END AS screenPath,
    CASE WHEN j.id IS NULL THEN OLD.pathManifest ELSE j.pathManifest END AS pathManifest
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = OLD.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), 1 FROM (SELECT NEW.signature AS signature, NEW.bundleID AS bundleID,
    CASE WHEN j.id IS NULL THEN NEW.trailSource ELSE 'joined' END AS trailSource,
    CASE WHEN j.id IS NULL THEN NEW.screenPath ELSE j.screenPath END AS screenPath,
    CASE WHEN j.id IS NULL THEN NEW.pathManifest ELSE j.pathManifest END AS pathManifest
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = NEW.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
DELETE FROM groupPathCount WHERE reports = 0
    AND (signature, bundleID, inferred, screenPath, pathManifest) IN (SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, '') FROM (SELECT OLD.signature AS signature, OLD.bundleID AS bundleID,
    CASE WHEN j.id IS NULL THEN OLD.trailSource ELSE 'joined' END AS trailSource,
    CASE WHEN j.id IS NULL THEN OLD.screenPath ELSE j.screenPath END AS screenPath,
    CASE WHEN j.id IS NULL THEN OLD.pathManifest ELSE j.pathManifest END AS pathManifest
FROM (SELECT 1) LEFT JOIN joinedTrail j ON j.id = OLD.id) AS src);
END;
CREATE TRIGGER joined_paths_insert AFTER INSERT ON joinedTrail BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), -1 FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, r.trailSource AS trailSource, r.screenPath AS screenPath,
    r.pathManifest AS pathManifest
FROM report r WHERE r.id = NEW.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), 1 FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, 'joined' AS trailSource, NEW.screenPath AS screenPath,
    NEW.pathManifest AS pathManifest
FROM report r WHERE r.id = NEW.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
DELETE FROM groupPathCount WHERE reports = 0
    AND (signature, bundleID, inferred, screenPath, pathManifest) IN (SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, '') FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, r.trailSource AS trailSource, r.screenPath AS screenPath,
    r.pathManifest AS pathManifest
FROM report r WHERE r.id = NEW.id) AS src);
END;
CREATE TRIGGER joined_paths_delete AFTER DELETE ON joinedTrail BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), -1 FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, 'joined' AS trailSource, OLD.screenPath AS screenPath,
    OLD.pathManifest AS pathManifest
FROM report r WHERE r.id = OLD.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), 1 FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, r.trailSource AS trailSource, r.screenPath AS screenPath,
    r.pathManifest AS pathManifest
FROM report r WHERE r.id = OLD.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
DELETE FROM groupPathCount WHERE reports = 0
    AND (signature, bundleID, inferred, screenPath, pathManifest) IN (SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, '') FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, 'joined' AS trailSource, OLD.screenPath AS screenPath,
    OLD.pathManifest AS pathManifest
FROM report r WHERE r.id = OLD.id) AS src);
END;
CREATE TRIGGER joined_paths_update AFTER UPDATE ON joinedTrail WHEN OLD.id IS NOT NEW.id OR OLD.screenPath IS NOT NEW.screenPath
    OR OLD.pathManifest IS NOT NEW.pathManifest BEGIN
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), -1 FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, 'joined' AS trailSource, OLD.screenPath AS screenPath,
    OLD.pathManifest AS pathManifest
FROM report r WHERE r.id = OLD.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), -1 FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, r.trailSource AS trailSource, r.screenPath AS screenPath,
    r.pathManifest AS pathManifest
FROM report r WHERE r.id = NEW.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), 1 FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, r.trailSource AS trailSource, r.screenPath AS screenPath,
    r.pathManifest AS pathManifest
FROM report r WHERE r.id = OLD.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
INSERT INTO groupPathCount (signature, bundleID, inferred, screenPath, pathManifest, reports)
SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, ''), 1 FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, 'joined' AS trailSource, NEW.screenPath AS screenPath,
    NEW.pathManifest AS pathManifest
FROM report r WHERE r.id = NEW.id) AS src WHERE src.trailSource IN ('embedded', 'joined', 'inferred')
ON CONFLICT (signature, bundleID, inferred, screenPath, pathManifest) DO UPDATE SET reports = reports + excluded.reports;
DELETE FROM groupPathCount WHERE reports = 0
    AND (signature, bundleID, inferred, screenPath, pathManifest) IN (SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, '') FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, 'joined' AS trailSource, OLD.screenPath AS screenPath,
    OLD.pathManifest AS pathManifest
FROM report r WHERE r.id = OLD.id) AS src);
DELETE FROM groupPathCount WHERE reports = 0
    AND (signature, bundleID, inferred, screenPath, pathManifest) IN (SELECT src.signature, COALESCE(src.bundleID, ''), CASE WHEN src.trailSource = 'inferred' THEN 1 ELSE 0 END,
    COALESCE(src.screenPath, ''), COALESCE(src.pathManifest, '') FROM (SELECT r.signature AS signature, r.bundleID AS bundleID, r.trailSource AS trailSource, r.screenPath AS screenPath,
    r.pathManifest AS pathManifest
FROM report r WHERE r.id = NEW.id) AS src);
END